/**
 * The API reference as a small static site, the same locally and on the CDN:
 *
 *   /openapi.json              the OpenAPI document (lib/api-docs/document.ts)
 *   /docs/index.html           Swagger UI (swagger-ui-dist) rendering it
 *   /docs/swagger-ui*.{js,css} the renderer's files, from node_modules
 *   /docs/api-docs.js          the page's own script, which starts the renderer
 *
 * Every path is absolute, so one page works at `/docs` (local) and at
 * `/docs/index.html` (CDN). Nothing is fetched from anywhere else: the
 * Content-Security-Policy allows the page's own origin only.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DOCUMENT_PATH = '/openapi.json';
export const DOCS_PREFIX = '/docs/';
export const DOCS_PAGE = 'index.html';

/** Where swagger-ui-dist is installed (its files are served as they ship). */
export const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The page's own script, served as /docs/api-docs.js. */
export const pageScript = { name: 'api-docs.js', file: join(dirname(fileURLToPath(import.meta.url)), 'swagger-initializer.js') };

/** The files of swagger-ui-dist the page loads; nothing else of the package is published. */
export const rendererFiles = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png'];

export interface DocsAsset {
  /** Name under /docs/. */
  name: string;
  file: string;
  contentType: string;
}

const contentTypes: Record<string, string> = {
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  png: 'image/png',
};

/** Every file the page loads besides itself and the document. */
export const docsAssets: DocsAsset[] = [...rendererFiles.map((name) => ({ name, file: join(swaggerUiDir, name) })), pageScript].map((asset) => ({
  ...asset,
  contentType: contentTypes[asset.name.split('.').pop() ?? ''],
}));

/**
 * The page's policy: scripts, styles, images and requests from its own origin
 * only (the renderer's icons are data: URLs in its stylesheet), no plugins, no
 * framing, no form posts.
 */
export const docsContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface DocsPageOptions {
  /**
   * Offer "Try it out": only where the API is the page's own origin (the
   * local stack); on the CDN the API is another origin that answers CORS for
   * browser keys only, and the policy allows no other origin.
   */
  tryItOut: boolean;
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function docsPage(options: DocsPageOptions): string {
  const asset = (name: string) => escapeAttribute(`${DOCS_PREFIX}${name}`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>urm API reference</title>
<link rel="stylesheet" href="${asset('swagger-ui.css')}">
<link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}">
</head>
<body>
<div id="api-reference" data-document-url="${escapeAttribute(DOCUMENT_PATH)}" data-try-it-out="${options.tryItOut}"></div>
<script src="${asset('swagger-ui-bundle.js')}"></script>
<script src="${asset(pageScript.name)}"></script>
</body>
</html>
`;
}
