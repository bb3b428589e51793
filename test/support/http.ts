/**
 * Talking to the local stack as an integrator does: JSON over HTTP with an
 * x-api-key. Every answer of an operation the OpenAPI document has is checked
 * against it (test/support/openapi.ts): a status it does not document, or a
 * body that does not match the documented schema, fails the test.
 */
import { openApiChecker } from './openapi';

export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Bytes are sent as they are (a body that is not UTF-8, for instance). */
function rawBodyOf(raw: string | Uint8Array | undefined): string | Uint8Array<ArrayBuffer> | undefined {
  return raw === undefined || typeof raw === 'string' ? raw : new Uint8Array(raw);
}

export async function request<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; rawBody?: string | Uint8Array; headers?: Record<string, string> } = {},
): Promise<JsonResponse<T>> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(options.body !== undefined || options.rawBody !== undefined ? { 'Content-Type': 'application/json' } : {}),
      Accept: 'application/json',
      ...(options.key ? { 'x-api-key': options.key } : {}),
      ...options.headers,
    },
    body: rawBodyOf(options.rawBody) ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  const checker = openApiChecker();
  const documented = checker.operationFor(method, path);
  if (documented) {
    const problems = checker.problems(documented, response.status, response.headers.get('content-type'), body);
    if (problems.length > 0) throw new Error(`the answer differs from the OpenAPI document: ${problems.join('; ')}\n${text.slice(0, 500)}`);
  }
  return { status: response.status, headers: response.headers, body: body as T };
}
