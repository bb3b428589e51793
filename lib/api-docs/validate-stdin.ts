/**
 * Reads an OpenAPI document on standard input and exits non-zero, with
 * swagger-parser's message on standard error, when it is invalid. Run by
 * validateOpenApiDocumentSync (CDK synthesis cannot await).
 */
import { validateOpenApiDocument } from './document';

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
try {
  await validateOpenApiDocument(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
