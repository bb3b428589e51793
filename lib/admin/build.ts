/**
 * The admin command line compiled ahead of time: bin/admin.ts bundled by esbuild into one ES module
 * that plain Node runs (bin/admin.mjs, the launcher, rebuilds it when an input changed). Packages stay
 * external, loaded from node_modules as under tsx, so the build takes well under a second.
 *
 * Next to the bundle, `inputs.json` lists every file it was made of with the hash of its content: the
 * project files esbuild's metafile names, and the files that steer the build (this module, package.json
 * with its `imports` map, the lock file, tsconfig.json). The launcher runs the bundle only while each
 * of them is unchanged.
 */
import { build, type Loader, type Plugin } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The bundle's file name, and the list of what it was built from, in the output directory. */
export const bundleName = 'admin.mjs';
export const inputsName = 'inputs.json';

/** What `inputs.json` holds: the checkout the bundle belongs to, and each input (relative to it) with its SHA-256. */
export interface BuildInputs {
  root: string;
  inputs: Record<string, string>;
}

const entry = 'bin/admin.ts';
/** Besides the sources: what decides how they are built (this module, the `imports` map, the packages' layout, tsconfig). */
const buildFiles = ['lib/admin/build.ts', 'package.json', 'package-lock.json', 'tsconfig.json'];

const loaders: Record<string, Loader> = { '.ts': 'ts', '.tsx': 'tsx', '.js': 'js', '.mjs': 'js', '.json': 'json' };

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** A bare specifier's package name and subpath (`@scope/name`, `/sub/path`). */
function packageOf(specifier: string): { name: string; subpath: string } | undefined {
  const match = /^((?:@[^/]+\/)?[^/]+)(\/.*)?$/.exec(specifier);
  return match ? { name: match[1], subpath: match[2] ?? '' } : undefined;
}

function packageDirOf(file: string, name: string): string {
  let dir = dirname(file);
  while (!dir.endsWith(`/node_modules/${name}`)) {
    if (dir === dirname(dir)) throw new Error(`${file} is not inside the package ${name}`);
    dir = dirname(dir);
  }
  return dir;
}

/**
 * Makes the bundle behave as the TypeScript does under tsx:
 * - packages stay external; a deep import into a package without an `exports` map (`ajv-formats/dist/formats`)
 *   gets the file's extension, which tsx adds and Node's ES module resolution does not;
 * - each module keeps its own `import.meta.url` (its source file), so paths it builds from it (the repository
 *   root, files next to it) stay what they are;
 * - the project's modules are free of side effects unless imported for them (`import './x'`), so a module the
 *   command line never uses (the emulators and their packages, reached through lib/local/stack.ts) is left out
 *   and its packages are not loaded at each call.
 */
function asUnderTsx(root: string, loaded: Map<string, string>): Plugin {
  const moduleUrlName = '__urmModuleUrl';
  const importedBare = new Map<string, Set<string>>();
  return {
    name: 'urm-admin-as-under-tsx',
    setup(builder) {
      builder.initialOptions.define = { ...builder.initialOptions.define, 'import.meta.url': moduleUrlName };
      const inner = { inner: true };

      builder.onResolve({ filter: /^[^./#]/ }, async (args) => {
        const pkg = packageOf(args.path);
        if (args.path.startsWith('node:') || args.pluginData === inner || !pkg) return undefined;
        if (pkg.subpath === '') return { path: args.path, external: true };
        const resolved = await builder.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: inner });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        // A Node.js built-in without its `node:` prefix (`fs/promises`).
        if (resolved.external) return { path: args.path, external: true };
        const dir = packageDirOf(resolved.path, pkg.name);
        const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { exports?: unknown };
        return { path: manifest.exports === undefined ? `${pkg.name}/${relative(dir, resolved.path)}` : args.path, external: true };
      });

      builder.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.pluginData === inner) return undefined;
        const resolved = await builder.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: inner });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        return { path: resolved.path, sideEffects: importedBare.get(args.importer)?.has(args.path) === true };
      });

      builder.onLoad({ filter: /\.(tsx?|m?js|json)$/ }, (args) => {
        if (!args.path.startsWith(`${root}/`) || args.path.includes('/node_modules/')) return undefined;
        const source = readFileSync(args.path);
        // The hash of what was built, not of the file as it may be by the end of the build.
        loaded.set(relative(root, args.path), sha256(source));
        const loader = loaders[extname(args.path)];
        if (loader !== 'ts' && loader !== 'tsx') return { contents: source, loader };
        const text = source.toString('utf8');
        importedBare.set(args.path, new Set([...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)].map((match) => match[1])));
        return { contents: `const ${moduleUrlName} = ${JSON.stringify(pathToFileURL(args.path).href)};\n${text}`, loader };
      });
    },
  };
}

/** Writes `file` whole or not at all: a command started meanwhile reads the old file or the new one. */
function writeAtomically(file: string, contents: Uint8Array | string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
}

/** Bundles bin/admin.ts of the checkout at `checkout` into `outDir`, with its `inputs.json` written last. */
export async function buildAdminBundle(checkout: string, outDir: string): Promise<BuildInputs> {
  // esbuild names files by their real path.
  const root = realpathSync(checkout);
  const loaded = new Map<string, string>();
  const steering = buildFiles.map((file) => [file, sha256(readFileSync(join(root, file)))] as const);
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(root, entry)],
    outfile: join(outDir, bundleName),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'error',
    plugins: [asUnderTsx(root, loaded)],
  });
  for (const output of result.outputFiles) writeAtomically(output.path, output.contents);
  const sources = Object.keys(result.metafile.inputs)
    .filter((file) => !file.split('/').includes('node_modules'))
    .map((file) => [file, loaded.get(file) ?? sha256(readFileSync(join(root, file)))] as const);
  const inputs: BuildInputs = { root, inputs: Object.fromEntries([...sources, ...steering].sort(([a], [b]) => a.localeCompare(b))) };
  writeAtomically(join(outDir, inputsName), `${JSON.stringify(inputs, null, 2)}\n`);
  return inputs;
}
