/**
 * `npm run admin -- …`: bin/admin.ts, compiled ahead of time. tsx would compile the whole command line on
 * every call; this runs the esbuild bundle lib/admin/build.ts made of it, kept under node_modules/.cache
 * (so `npm ci` starts afresh), and rebuilds it first whenever a file it was made of changed: the bundle
 * runs only while the content of every input listed in its inputs.json is what it was built from.
 */
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = realpathSync(join(dirname(fileURLToPath(import.meta.url)), '..'));
// One bundle per checkout: worktrees may share one node_modules.
const cacheDir = join(root, 'node_modules', '.cache', 'urm-admin', createHash('sha256').update(root).digest('hex').slice(0, 16));

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/** Whether the bundle in cacheDir was built from this checkout's files as they are now (inputs.json: lib/admin/build.ts). */
function bundleIsFresh() {
  let built;
  try {
    built = JSON.parse(readFileSync(join(cacheDir, 'inputs.json'), 'utf8'));
  } catch {
    return false;
  }
  if (built.root !== root) return false;
  return Object.entries(built.inputs).every(([file, hash]) => {
    try {
      return sha256(readFileSync(join(root, file))) === hash;
    } catch {
      return false;
    }
  });
}

if (!bundleIsFresh()) {
  // Only here is TypeScript compiled in this process: the build module itself.
  const { tsImport } = await import('tsx/esm/api');
  const { buildAdminBundle } = await tsImport('../lib/admin/build.ts', import.meta.url);
  try {
    await buildAdminBundle(root, cacheDir);
  } catch (error) {
    console.error(`admin: could not compile the command line (${error.message.split('\n')[0]})`);
    process.exit(1);
  }
}

const { runAdmin } = await import(pathToFileURL(join(cacheDir, 'admin.mjs')).href);
await runAdmin(process.argv, {
  async loadTypeScript() {
    const { register } = await import('tsx/esm/api');
    register();
  },
});
