/**
 * The OpenAPI document (lib/api-docs): valid OpenAPI 3.1, one operation per
 * entry of functions/manifest/operations.ts, request schemas that accept and refuse what the
 * functions' validators do, and examples that say what the schemas say.
 */
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { normaliseRegistration } from '../../../functions/back-office/affiliate-registration-schema';
import { ValidationError } from '../../../functions/domain/errors';
import type { Validator } from '../../../functions/domain/validation';
import { buildOpenApiDocument, expectedStatus, validateOpenApiDocument } from '../../../lib/api-docs/document';
import { namedSchemas, operationDocs } from '../../../lib/api-docs/operation-docs';
import { validators } from '../../../lib/api-docs/operations/common';
import { toSchemaObject } from '../../../lib/api-docs/schema-object';
import { httpRoutes } from '../../../functions/manifest/operations';
import { OpenApiChecker } from '../../support/openapi';

const document = buildOpenApiDocument() as Record<string, any>;
const checker = new OpenApiChecker(document);

const pointer = (...segments: string[]) => `/${segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

interface DocumentedOperation {
  path: string;
  method: string;
  operation: Record<string, any>;
}

function everyOperation(): DocumentedOperation[] {
  return Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  );
}

function accepts(validate: Validator<unknown>, input: unknown): boolean {
  try {
    validate(input);
    return true;
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return false;
  }
}

describe('the OpenAPI document', () => {
  test('validates as OpenAPI 3.1 with swagger-parser', async () => {
    await validateOpenApiDocument(document);
    expect(document.openapi).toBe('3.1.0');
  });

  test('is refused by the validation when it is broken', async () => {
    const broken = { ...document, paths: { '/profiles': { post: { responses: 'none' } } } };

    await expect(validateOpenApiDocument(broken)).rejects.toThrow(/the OpenAPI document is invalid/);
  });

  test('puts the server URL it is given in servers, the local stack by default', () => {
    expect(buildOpenApiDocument({ serverUrl: 'https://api.example.com/v1' }).servers).toEqual([{ url: 'https://api.example.com/v1' }]);
    expect(document.servers).toEqual([{ url: 'http://127.0.0.1:3000' }]);
  });

  test('has every operation of functions/manifest/operations.ts under its path and method, and a preflight for each a browser may call', () => {
    const expected = httpRoutes()
      .filter((op) => !op.portalPage)
      .flatMap((op) => [`${op.method} ${op.path} ${op.id}`, ...(op.browser ? [`OPTIONS ${op.path} ${op.id}Preflight`] : [])]);

    const documented = everyOperation().map(({ path, method, operation }) => `${method.toUpperCase()} ${path} ${operation.operationId}`);

    expect(documented.sort()).toEqual(expected.sort());
  });

  test('names the key scopes of each operation as its security, and no key for the pages and preflights', () => {
    for (const { operation } of everyOperation()) {
      const doc = operationDocs[operation.operationId];
      const scopes = (operation.security as Record<string, unknown>[]).map((requirement) => Object.keys(requirement)[0]);
      expect(scopes).toEqual(doc ? doc.scopes.map((scope) => `${scope}Key`) : []);
    }
  });

  test('gives every operation a tag, a summary and its error answers', () => {
    for (const { method, operation } of everyOperation()) {
      expect(operation.tags.length === 1 && operation.summary).toBeTruthy();
      const statuses = Object.keys(operation.responses);
      const keyed = operation.security.length > 0;
      for (const status of keyed ? ['400', '403', '500'] : method === 'options' ? ['403'] : ['500']) {
        expect(statuses.includes(status)).toBeTruthy();
      }
    }
  });
});

describe('request schemas of the document', () => {
  const bodies = Object.entries(operationDocs).filter(([, doc]) => doc.body);

  test("are the functions' schemas, translated", () => {
    for (const [id, doc] of bodies) {
      const { path, method } = httpRoutes().find((op) => op.id === id)!;
      const documented = document.paths[path][method.toLowerCase()].requestBody.content['application/json'].schema;
      const { anyOf: _rule, ...schema } = documented;
      const translated = toSchemaObject(doc.body!.validate.schema, namedSchemas);
      expect(JSON.parse(JSON.stringify(schema))).toEqual(JSON.parse(JSON.stringify(translated)));
    }
  });

  test("have query parameters that are the properties of the functions' query schemas", () => {
    for (const [id, doc] of Object.entries(operationDocs).filter(([, d]) => d.query)) {
      const { path, method } = httpRoutes().find((op) => op.id === id)!;
      const parameters = (document.paths[path][method.toLowerCase()].parameters as any[]).filter((p) => p.in === 'query');
      const schema = doc.query!.validate.schema as { properties: Record<string, object>; required: string[] };
      expect(parameters.map((p) => [p.name, p.required, p.schema])).toEqual(
        Object.entries(schema.properties).map(([name, property]) => [
          name,
          schema.required.includes(name),
          JSON.parse(JSON.stringify(toSchemaObject(property, namedSchemas))),
        ]),
      );
    }
  });

  // Names at the edges of the rules the ajv-only keyword urmAttributeName checks.
  const names = fc.constantFrom(
    'first_name',
    'urm_set',
    'urm_x',
    'URM_vip',
    'Urmson',
    'urban',
    '__proto__',
    '',
    'a'.repeat(255),
    'a'.repeat(256),
    '😀'.repeat(255),
    '😀'.repeat(256),
    'app_id',
    'event',
    'urm_ip',
    'urm_web_push_notification_token',
    'urm_aff',
    'urm_receives_notifications',
    'urm_merge',
    'urm_delete_profile',
    'urm_add',
    'nickname',
    'email',
    'users',
    'ttl',
  );
  const values = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom(
      '',
      ' ',
      'x',
      ' padded ',
      '2026-01-31T12:00:00Z',
      '2026-01-31 12:00',
      '10.0.0.1',
      '::1',
      'not-an-ip',
      'https://x.example',
      'ftp://x.example',
      '@handle',
      'a@b.example',
      'profile_id',
      -1,
      0,
      1.5,
      101,
      [],
      [[[]]],
      {},
      null,
    ),
  );
  const mutation = fc.record({
    steps: fc.array(fc.nat(), { maxLength: 4 }),
    name: fc.oneof(names, fc.string({ maxLength: 8 })),
    value: values,
    remove: fc.boolean(),
  });

  /** The example with one change somewhere inside it: a field set, replaced or removed. */
  function mutate(example: unknown, { steps, name, value, remove }: { steps: number[]; name: string; value: unknown; remove: boolean }): unknown {
    const copy = structuredClone(example);
    let target: any = copy;
    for (const step of steps) {
      const keys = Array.isArray(target) ? target.map((_: unknown, i: number) => i) : Object.keys(target);
      if (keys.length === 0) break;
      const child = target[keys[step % keys.length]];
      if (typeof child !== 'object' || child === null) break;
      target = child;
    }
    if (Array.isArray(target)) {
      if (remove) target.pop();
      else target.push(value);
    } else if (remove) {
      delete target[name];
    } else {
      Object.defineProperty(target, name, { value, enumerable: true, configurable: true, writable: true });
    }
    return copy;
  }

  for (const [id, doc] of bodies) {
    test(`accept and refuse what ${id}'s validator does`, () => {
      const { path, method } = httpRoutes().find((op) => op.id === id)!;
      const documented = checker.schemaAt(pointer('paths', path, method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema'));
      const examples = Object.values(document.paths[path][method.toLowerCase()].requestBody.content['application/json'].examples).map((e: any) => e.value);
      // register_affiliate trims and drops empty optional fields first: the schema describes what remains.
      const seen = (body: unknown) =>
        doc.body!.validate === validators.registerAffiliate && typeof body === 'object' && body !== null && !Array.isArray(body)
          ? normaliseRegistration(body)
          : body;

      const verdicts = new Set<boolean>();
      fc.assert(
        fc.property(fc.constantFrom(...examples), mutation, (example, change) => {
          const body = mutate(example, change);
          const verdict = accepts(doc.body!.validate, body);
          verdicts.add(verdict);
          expect(documented(seen(body))).toBe(verdict);
        }),
        { numRuns: 400 },
      );
      expect(verdicts.size).toBe(2);
    });
  }
});

describe('examples of the document', () => {
  const everyOperationWithExamples = everyOperation().filter(({ operation }) => operation.requestBody || operation.parameters.length > 0);

  test('name a documented status that has an answer of the same name, when that status has a body', () => {
    for (const { operation } of everyOperation()) {
      const names = new Set<string>([
        ...Object.keys(operation.requestBody?.content['application/json'].examples ?? {}),
        ...(operation.parameters as any[]).flatMap((p) => Object.keys(p.examples ?? {})),
      ]);
      expect(names.size > 0).toBeTruthy();
      for (const name of names) {
        const response = operation.responses[String(expectedStatus(name))];
        expect(response).toBeTruthy();
        if (response.content) {
          expect(Object.values(response.content).some((c: any) => c.examples?.[name])).toBeTruthy();
        }
      }
    }
  });

  test('of answers validate against the schema of their status', () => {
    for (const { path, method, operation } of everyOperation()) {
      for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
        for (const [mediaType, content] of Object.entries(response.content ?? {}) as [string, any][]) {
          const validate = checker.schemaAt(pointer('paths', path, method, 'responses', status, 'content', mediaType, 'schema'));
          for (const example of Object.values(content.examples ?? {}) as any[]) {
            expect(validate(example.value)).toBeTruthy();
          }
        }
      }
    }
  });

  test('of requests validate against the request schema, except those that show a refusal (400)', () => {
    for (const { path, method, operation } of everyOperationWithExamples) {
      const content = operation.requestBody?.content['application/json'];
      const body = content && checker.schemaAt(pointer('paths', path, method, 'requestBody', 'content', 'application/json', 'schema'));
      for (const [name, example] of Object.entries(content?.examples ?? {}) as [string, any][]) {
        if (expectedStatus(name) === 400) continue;
        expect(body!(example.value)).toBeTruthy();
      }
      (operation.parameters as any[]).forEach((parameter, index) => {
        const validate = checker.schemaAt(pointer('paths', path, method, 'parameters', String(index), 'schema'));
        for (const [name, example] of Object.entries(parameter.examples ?? {}) as [string, any][]) {
          if (expectedStatus(name) === 400) continue;
          expect(validate(example.value)).toBeTruthy();
        }
      });
    }
  });

  test('of refused request bodies are refused by the function', () => {
    for (const doc of Object.values(operationDocs)) {
      for (const [name, example] of Object.entries(doc.examples)) {
        if (expectedStatus(name) === 400 && example.body !== undefined) expect(accepts(doc.body!.validate, example.body)).toBe(false);
      }
    }
  });
});
