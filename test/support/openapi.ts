/**
 * Checks answers of the API against the OpenAPI document (lib/api-docs): the
 * documented operation for a method and path, and whether a status, its
 * media type and its body are what the document says. Used by request()
 * (test/support/http.ts) on every answer, and by the contract test.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';
import { addSchemaFormats } from '../../functions/domain/schema-compiler';
import { buildOpenApiDocument } from '../../lib/api-docs/document';

const DOCUMENT_ID = 'urm-openapi.json';

export interface DocumentedOperation {
  path: string;
  method: string;
  operation: Record<string, any>;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export class OpenApiChecker {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly routes: { pattern: RegExp; path: string }[];

  constructor(readonly document: Record<string, any> = buildOpenApiDocument()) {
    addSchemaFormats(this.ajv);
    this.ajv.addSchema(document, DOCUMENT_ID);
    this.routes = Object.keys(document.paths).map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`),
    }));
  }

  /** The operation the document has for this method and path (query string ignored), if any. */
  operationFor(method: string, url: string): DocumentedOperation | undefined {
    const pathname = new URL(url, 'http://localhost').pathname;
    const route = this.routes.find((candidate) => candidate.pattern.test(pathname));
    const operation = route && this.document.paths[route.path][method.toLowerCase()];
    return operation ? { path: route.path, method: method.toLowerCase(), operation } : undefined;
  }

  /** A validator of the schema at `pointer` (a JSON pointer into the document). */
  schemaAt(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  /**
   * What is wrong with an answer, by the document: an empty list when the
   * status is documented for the operation and the body has the documented
   * media type and validates against the schema.
   */
  problems(documented: DocumentedOperation, status: number, contentType: string | null, body: unknown): string[] {
    const where = `${documented.method.toUpperCase()} ${documented.path} answered ${status}`;
    const response = documented.operation.responses[String(status)];
    if (!response) return [`${where}: the document has no such status for it`];
    const content = response.content as Record<string, unknown> | undefined;
    if (!content) return body === '' || body === undefined ? [] : [`${where} with a body, but the document gives it none`];
    const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
    if (!(mediaType in content)) return [`${where} as ${mediaType || 'no media type'}, documented: ${Object.keys(content).join(', ')}`];
    const pointer = ['paths', documented.path, documented.method, 'responses', String(status), 'content', mediaType, 'schema'].map(escapePointer).join('/');
    const validate = this.schemaAt(`/${pointer}`);
    if (validate(body)) return [];
    return (validate.errors ?? []).map((error) => `${where}: body${error.instancePath} ${error.message}`);
  }
}

let shared: OpenApiChecker | undefined;

/** The checker of the document as built from this tree, made on first use. */
export function openApiChecker(): OpenApiChecker {
  shared ??= new OpenApiChecker();
  return shared;
}
