/**
 * The OpenAPI 3.1 document of the API, built from functions/manifest/operations.ts and the
 * very schemas the functions validate with (./operations.ts says which belong
 * to which operation). Served at /openapi.json and rendered at /docs;
 * `npm run openapi` writes it to a file.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { errorListBodySchema, invalidRequestBodySchema, messageBodySchema } from '../../functions/http/error-bodies';
import { BodyTooLarge, HttpProblem, toErrorResponse } from '../../functions/http/errors';
import { describeBytes } from '../../functions/http/json-body';
import { errorPage } from '../../functions/http/pages';
import { maxBodyBytesOf } from '../../functions/manifest/body-limits';
import { httpRoutes, type HttpRoute } from '../../functions/manifest/operations';
import { namedSchemas, operationDocs } from './operation-docs';
import { corsAppIdParameter, corsHeaders, preflightDoc } from './operations/cors';
import { tags, type OperationDoc, type ParameterDoc, type RequestExample, type ResponseDoc } from './operations/doc-types';
import { otherAppId, placeholders } from './placeholders';
import { toSchemaObject, type SchemaObject } from './schema-object';

export const defaultServerUrl = 'http://127.0.0.1:3000';

/** The status an example gets: the number its name begins with (./operations.ts). */
export function expectedStatus(exampleName: string): number {
  const status = /^([1-5]\d\d) /.exec(exampleName)?.[1];
  if (status === undefined) throw new Error(`example "${exampleName}" does not begin with its status`);
  return Number(status);
}

/** The JSON body `toErrorResponse` gives for `error`. */
function errorBody(error: unknown, style: 'message' | 'errors'): unknown {
  return JSON.parse(toErrorResponse(error, { style }).body) as unknown;
}

const mediaTypeRefusal = new HttpProblem(415, 'Content-Type must be application/json');
/** Answers of API Gateway itself (and of the local server, which plays it): bodies `{"message"}`. */
const gatewayResponses: Record<number, ResponseDoc> = {
  429: {
    description: "API Gateway's throttling: the stage's or the key's rate was exceeded. Retry with backoff.",
    schema: messageBodySchema,
    illustrations: { '429 throttled': { summary: 'Too many requests', value: { message: 'Too Many Requests' } } },
  },
  504: {
    description: 'The function did not answer within 29 seconds.',
    schema: messageBodySchema,
    illustrations: { '504 timed out': { summary: 'The integration timed out', value: { message: 'Endpoint request timed out' } } },
  },
};

/** The answers every operation of its kind can give, besides its own. */
function sharedResponses(operationId: string, doc: OperationDoc, method: string): Record<number, ResponseDoc> {
  if (doc.page) {
    return {
      500: {
        description: 'Something failed inside; the page says nothing of it.',
        html: true,
        illustrations: { '500 error page': { summary: 'The error page', value: errorPage() } },
      },
      ...gatewayResponses,
    };
  }
  const style = doc.errorStyle ?? 'message';
  const body = style === 'errors' ? errorListBodySchema : messageBodySchema;
  const internalError: Record<number, ResponseDoc> = {
    500: {
      description: 'Something failed inside; the answer says nothing of it. Re-sending is safe.',
      schema: body,
      illustrations: {
        '500 internal error': {
          summary: 'An internal error',
          value: style === 'errors' ? { errors: ['internal server error'] } : { message: 'internal server error' },
        },
      },
    },
    ...gatewayResponses,
  };
  // A preflight: no key, no body.
  if (doc.scopes.length === 0) return internalError;
  const responses: Record<number, ResponseDoc> = {
    400: {
      description: 'The request breaks a rule: every problem found, each naming the field.',
      schema: style === 'errors' ? errorListBodySchema : invalidRequestBodySchema,
    },
    403: {
      description: "A missing, unknown, revoked or out-of-scope key, or another application's `app_id`: the same answer for each.",
      schema: messageBodySchema,
    },
    ...internalError,
  };
  if (method !== 'POST') return responses;
  return {
    ...responses,
    406: {
      description: 'The Accept header does not allow application/json.',
      schema: body,
      illustrations: {
        '406 not acceptable': { summary: 'Accept: text/html', value: errorBody(new HttpProblem(406, 'Accept must allow application/json'), style) },
      },
    },
    413: {
      description:
        "The body is over the operation's bound, named in the message (decided on its length, before anything is parsed), or over API Gateway's own 10 MiB payload limit.",
      schema: messageBodySchema,
      illustrations: {
        '413 over the bound': {
          summary: "A body over the operation's bound",
          value: errorBody(new BodyTooLarge(`request body must be at most ${describeBytes(maxBodyBytesOf(operationId))}`), style),
        },
        '413 too long': { summary: 'A body over 10 MiB', value: { message: 'Request Too Long' } },
      },
    },
    415: {
      description: 'The Content-Type is not application/json.',
      schema: body,
      illustrations: { '415 unsupported media type': { summary: 'Content-Type: text/plain', value: errorBody(mediaTypeRefusal, style) } },
    },
  };
}

/** `value` with every string equal to `from` replaced by `to`. */
function replaceString(value: unknown, from: string, to: string): unknown {
  if (value === from) return to;
  if (Array.isArray(value)) return value.map((item) => replaceString(item, from, to));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceString(item, from, to)]));
  }
  return value;
}

/** The examples of an operation, with the 403 every keyed operation gives for another application's `app_id`. */
function examplesOf(doc: OperationDoc): Record<string, RequestExample> {
  if (doc.scopes.length === 0) return doc.examples;
  const success = Object.entries(doc.examples).find(([name]) => expectedStatus(name) < 300);
  if (!success) throw new Error(`"${doc.summary}" has no example that succeeds`);
  const { answer: _answer, summary: _summary, ...request } = success[1];
  return {
    ...doc.examples,
    "403 another application's app_id": {
      ...(replaceString(request, placeholders.appId, otherAppId) as RequestExample),
      summary: "The request names an application other than the key's",
      answer: { message: 'Forbidden' },
    },
  };
}

const parameterValues: Record<ParameterDoc['in'], keyof RequestExample> = { path: 'path', query: 'query', header: 'headers', cookie: 'cookies' };

function parametersOf(doc: OperationDoc, browser: boolean, examples: Record<string, RequestExample>): SchemaObject[] {
  // A browser key's POST takes no query string but the application's name, for CORS.
  const queryParameters: ParameterDoc[] = browser && doc.scopes.includes('browser') && !doc.query ? [corsAppIdParameter] : [];
  if (doc.query) {
    const schema = doc.query.validate.schema as { properties: Record<string, object>; required?: string[] };
    for (const [name, property] of Object.entries(schema.properties)) {
      const description = doc.query.descriptions[name];
      if (description === undefined) throw new Error(`"${doc.summary}": query parameter ${name} has no description`);
      queryParameters.push({ name, in: 'query', required: schema.required?.includes(name) ?? false, description, schema: property });
    }
  }
  return [...(doc.parameters ?? []), ...queryParameters].map((parameter) => {
    const parameterExamples = Object.fromEntries(
      Object.entries(examples).flatMap(([name, example]) => {
        const value = (example[parameterValues[parameter.in]] as Record<string, string> | undefined)?.[parameter.name];
        return value === undefined ? [] : [[name, { summary: example.summary, value }]];
      }),
    );
    return {
      name: parameter.name,
      in: parameter.in,
      required: parameter.required,
      description: parameter.description,
      schema: toSchemaObject(parameter.schema, namedSchemas),
      ...(Object.keys(parameterExamples).length > 0 ? { examples: parameterExamples } : {}),
    };
  });
}

function requestBodyOf(operationId: string, doc: OperationDoc, examples: Record<string, RequestExample>): SchemaObject | undefined {
  if (!doc.body) return undefined;
  const schema = toSchemaObject(doc.body.validate.schema, namedSchemas);
  for (const keyword of Object.keys(doc.body.also ?? {})) {
    if (keyword in schema) throw new Error(`"${doc.summary}": the extra rule's ${keyword} would replace the schema's`);
  }
  const bodyExamples = Object.fromEntries(
    Object.entries(examples)
      .filter(([, example]) => example.body !== undefined)
      .map(([name, example]) => [name, { summary: example.summary, value: example.body }]),
  );
  return {
    required: true,
    description: `${doc.body.description} At most ${describeBytes(maxBodyBytesOf(operationId))}: a larger body is a 413.`,
    content: { 'application/json': { schema: { ...schema, ...doc.body.also }, examples: bodyExamples } },
  };
}

function responsesOf(operationId: string, doc: OperationDoc, method: string, browser: boolean, examples: Record<string, RequestExample>): SchemaObject {
  const all = { ...sharedResponses(operationId, doc, method), ...doc.responses };
  for (const name of Object.keys(examples)) {
    if (all[expectedStatus(name)] === undefined) throw new Error(`"${doc.summary}": example "${name}" gets an undocumented status`);
  }
  const entries = Object.entries(all)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([status, response]) => {
      const answers = Object.entries(examples)
        .filter(([name, example]) => expectedStatus(name) === Number(status) && example.answer !== undefined)
        .map(([name, example]) => [name, { summary: example.summary, value: example.answer }] as const);
      const shown = Object.fromEntries([...answers, ...Object.entries(response.illustrations ?? {})]);
      const headers = { ...(browser && doc.scopes.length > 0 ? corsHeaders : {}), ...response.headers };
      const hasBody = response.html === true || response.schema !== undefined;
      if (!hasBody && Object.keys(shown).length > 0) throw new Error(`"${doc.summary}": ${status} has examples but no body`);
      const mediaType = response.html ? 'text/html' : 'application/json';
      const schema = response.html ? { type: 'string' } : hasBody ? toSchemaObject(response.schema, namedSchemas) : undefined;
      return [
        status,
        {
          description: response.description,
          ...(Object.keys(headers).length > 0 ? { headers } : {}),
          ...(hasBody ? { content: { [mediaType]: { schema, ...(Object.keys(shown).length > 0 ? { examples: shown } : {}) } } } : {}),
        },
      ] as const;
    });
  return Object.fromEntries(entries);
}

/** Whether the example has anything to send: an example without parts would not appear in the document. */
function hasParts(example: RequestExample): boolean {
  return example.body !== undefined || [example.path, example.query, example.headers, example.cookies].some((part) => part && Object.keys(part).length > 0);
}

function operationObject(operationId: string, doc: OperationDoc, method: string, browser: boolean): SchemaObject {
  const examples = examplesOf(doc);
  const partless = Object.keys(examples).filter((name) => !hasParts(examples[name]));
  if (partless.length > 0) throw new Error(`${operationId}: examples without a value to send: ${partless.join(', ')}`);
  const refusesOthers = (doc.query?.validate.schema as { additionalProperties?: unknown } | undefined)?.additionalProperties === false;
  const requestBody = requestBodyOf(operationId, doc, examples);
  return {
    operationId,
    tags: [doc.tag],
    summary: doc.summary,
    description: refusesOthers ? `${doc.description} Other query parameters are refused (400).` : doc.description,
    security: doc.scopes.map((scope) => ({ [`${scope}Key`]: [] })),
    parameters: parametersOf(doc, browser, examples),
    ...(requestBody ? { requestBody } : {}),
    responses: responsesOf(operationId, doc, method, browser, examples),
  };
}

function pathItems(operations: HttpRoute[]): SchemaObject {
  const paths: Record<string, Record<string, SchemaObject>> = {};
  // The console's and the affiliate portal's routes are for people, not integrators: docs/api.md describes them.
  for (const operation of operations.filter((candidate) => !candidate.portalPage)) {
    const doc = operationDocs[operation.id];
    if (!doc) throw new Error(`operation ${operation.id} has no documentation in lib/api-docs/operation-docs.ts`);
    paths[operation.path] ??= {};
    const item = paths[operation.path];
    item[operation.method.toLowerCase()] = operationObject(operation.id, doc, operation.method, operation.browser === true);
    if (operation.browser) {
      item.options = operationObject(`${operation.id}Preflight`, { ...preflightDoc(operation.method), tag: doc.tag }, 'OPTIONS', true);
    }
  }
  return paths;
}

const packageJson = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../package.json'), 'utf8')) as {
  version: string;
};

export function buildOpenApiDocument(options: { serverUrl?: string } = {}): Record<string, unknown> {
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'urm',
      version: packageJson.version,
      summary: 'Customer-relationship and affiliate platform: profiles, events, affiliates, enterprise users, email and web push.',
      description:
        'Every operation but the portal pages takes an API key in the `x-api-key` header. A key belongs to one application ' +
        'and has one scope: `server`, `comms` or `browser`. JSON operations take `Content-Type: application/json` and an ' +
        '`Accept` that allows it. Example names begin with the status the example gets; values such as ' +
        `\`${placeholders.appId}\` or \`${placeholders.profileId}\` stand for your own.`,
    },
    servers: [{ url: options.serverUrl ?? defaultServerUrl }],
    tags,
    paths: pathItems(httpRoutes()),
    components: {
      securitySchemes: {
        serverKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'An API key of scope `server` (`urm_server_…`).' },
        commsKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'An API key of scope `comms` (`urm_comms_…`): email and web push.' },
        browserKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description: "An API key of scope `browser` (`urm_browser_…`): public, for the push SDK only, from the application's site origins.",
        },
      },
      schemas: Object.fromEntries([...namedSchemas].map(([schema, name]) => [name, toSchemaObject(schema, namedSchemas, true)])),
    },
  };
  // A plain JSON value: what is served is exactly what was validated.
  return JSON.parse(JSON.stringify(document)) as Record<string, unknown>;
}

/** Validates against the OpenAPI 3.1 schema and resolves every $ref; throws naming the problem. */
export async function validateOpenApiDocument(document: Record<string, unknown>): Promise<void> {
  try {
    // swagger-parser dereferences in place: it gets a copy.
    await SwaggerParser.validate(structuredClone(document) as never);
  } catch (error) {
    throw new Error(`the OpenAPI document is invalid: ${(error as Error).message}`, { cause: error });
  }
}
