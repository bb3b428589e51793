/**
 * `npm run openapi`: builds the OpenAPI document (lib/api-docs), validates it
 * with swagger-parser and writes it. Exits non-zero, saying why, when it is
 * invalid.
 *   -o, --out <file>        where to write it, default .urm/openapi.json; `-` for stdout
 *   --server-url <url>      the API's base URL in `servers`, default the local stack's
 */
import { Command } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument, defaultServerUrl, validateOpenApiDocument } from '../lib/api-docs/document';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const options = new Command('openapi')
  .description('Build, validate and write the OpenAPI document')
  .option('-o, --out <file>', 'output file, or - for stdout', '.urm/openapi.json')
  .option('--server-url <url>', "the API's base URL", defaultServerUrl)
  .parse()
  .opts<{ out: string; serverUrl: string }>();

try {
  const document = buildOpenApiDocument({ serverUrl: options.serverUrl });
  await validateOpenApiDocument(document);
  const text = `${JSON.stringify(document, null, 2)}\n`;
  if (options.out === '-') {
    process.stdout.write(text);
  } else {
    const file = resolve(root, options.out);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    console.error(`OpenAPI ${document.openapi} document, valid: ${file}`);
  }
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
