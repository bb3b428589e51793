/**
 * The OpenAPI document's validation during `cdk synth`. swagger-parser is
 * asynchronous and a construct's constructor is not, so the document goes to
 * a child Node process (validate-stdin.ts) that validates it and answers with
 * its exit status: synthesis fails, with the validator's message, on an
 * invalid document. About a second, once per synthesis.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..');

export class InvalidOpenApiDocumentError extends Error {
  override name = 'InvalidOpenApiDocumentError';
}

export function validateOpenApiDocumentSync(document: Record<string, unknown>): void {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(here, 'validate-stdin.ts')], {
    cwd: repoRoot,
    input: JSON.stringify(document),
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status === 0) return;
  const reason = result.error?.message ?? (result.stderr.trim() || `exit status ${result.status ?? result.signal}`);
  throw new InvalidOpenApiDocumentError(`The API reference (built by lib/api-docs/document.ts) cannot be published: ${reason}`);
}
