/**
 * How the local stack gets each function's handler: by default its TypeScript entry, imported as
 * it is; with `--bundled`, the bundle `cdk synth` stages for it (bundles.ts).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FunctionDefinition } from '../../functions/manifest/operations';

/** Loads the handler a function definition names. */
export type HandlerLoader = (definition: FunctionDefinition) => Promise<unknown>;

/** Imports `file` and returns its export `name`, which must be a function. */
export async function importHandler(file: string, name = 'handler'): Promise<unknown> {
  const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  if (typeof module[name] !== 'function') throw new Error(`${file} exports no function "${name}"`);
  return module[name];
}

/** Each function's TypeScript entry, imported through tsx. */
export function sourceHandlers(root: string): HandlerLoader {
  return (definition) => importHandler(join(root, definition.entry));
}
