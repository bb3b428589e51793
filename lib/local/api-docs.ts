/**
 * The API reference in the local stack: `/openapi.json` (servers: the local
 * base URL) and Swagger UI at `/docs` (also `/docs/` and `/docs/index.html`,
 * the CDN's address), its files from node_modules (lib/api-docs/site.ts).
 * The document is built and validated once, at start-up.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildOpenApiDocument, validateOpenApiDocument } from '../api-docs/document';
import { DOCS_PAGE, DOCS_PREFIX, docsAssets, docsContentSecurityPolicy, docsPage, DOCUMENT_PATH } from '../api-docs/site';
import { LocalStackError } from './emulators';
import type { StaticHandler } from './server';

export interface ApiDocs {
  /** The document as served, serialized once. */
  documentJson: string;
}

/** Builds the document for this base URL and refuses to start with one swagger-parser rejects. */
export async function loadApiDocs(
  baseUrl: string,
  build: (options: { serverUrl: string }) => Record<string, unknown> = buildOpenApiDocument,
): Promise<ApiDocs> {
  const document = build({ serverUrl: baseUrl });
  try {
    await validateOpenApiDocument(document);
  } catch (error) {
    throw new LocalStackError(`The API reference (built by lib/api-docs/document.ts) cannot be served: ${(error as Error).message.trim()}`);
  }
  return { documentJson: JSON.stringify(document) };
}

function send(request: IncomingMessage, response: ServerResponse, body: string | Buffer, headers: Record<string, string>): void {
  response.writeHead(200, { 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff', ...headers });
  response.end(request.method === 'HEAD' ? undefined : body);
}

export function apiDocsStatics(docs: ApiDocs, log: (line: string) => void): StaticHandler {
  const page = docsPage({ tryItOut: true });
  const pagePaths = new Set(['/docs', DOCS_PREFIX, `${DOCS_PREFIX}${DOCS_PAGE}`]);
  const assets = new Map(docsAssets.map((asset) => [`${DOCS_PREFIX}${asset.name}`, asset]));

  return (request, response, url) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    if (url.pathname === DOCUMENT_PATH) {
      send(request, response, docs.documentJson, { 'Content-Type': 'application/json; charset=utf-8' });
      return true;
    }
    if (pagePaths.has(url.pathname)) {
      send(request, response, page, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': docsContentSecurityPolicy });
      return true;
    }
    const asset = assets.get(url.pathname);
    if (!asset) return false;
    readFile(asset.file).then(
      (contents) => send(request, response, contents, { 'Content-Type': asset.contentType }),
      (error: unknown) => {
        log(`api docs: ${url.pathname}: ${(error as Error).message}`);
        response.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify({ message: 'internal server error' }));
      },
    );
    return true;
  };
}
