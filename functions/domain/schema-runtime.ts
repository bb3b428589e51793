/**
 * What a request validator needs when it runs, whether ajv compiled it in the
 * process (schema-compiler.ts: tests, tsx, the local stack) or at build time
 * into the function's bundle (lib/aws/constructs/precompiled-validators.ts):
 * the formats the schemas name and the check behind the `urmAttributeName`
 * keyword. Nothing here compiles a schema, so a bundle that imports it carries
 * no ajv compiler.
 */
import { fullFormats } from 'ajv-formats/dist/formats';
import { isIP } from 'node:net';
import { customNameProblem } from './attributes';
import { isHttpUrl, isYouTubeLink } from './links';

/** The formats the schemas use: ajv-formats' full checks, and ours. */
/** An IANA time zone name the runtime knows (`Europe/Malta`, `UTC`); no offsets, no abbreviations. */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** A well-formed BCP 47 language tag (`en`, `pt-BR`, `zh-Hant-TW`). */
export function isLanguageTag(value: string): boolean {
  if (!/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(value)) return false;
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}

export const schemaFormats = {
  'date-time': fullFormats['date-time'],
  email: fullFormats.email,
  uri: fullFormats.uri,
  uuid: fullFormats.uuid,
  ip: { type: 'string', validate: (value: string) => isIP(value) !== 0 },
  'http-url': { type: 'string', validate: isHttpUrl },
  youtube: { type: 'string', validate: isYouTubeLink },
  'iana-time-zone': { type: 'string', validate: isTimeZone },
  bcp47: { type: 'string', validate: isLanguageTag },
  'urm-topic': /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/,
} as const;

/** `urmAttributeName: allowed`: why `name` is neither a custom attribute name nor one of `allowed`, or undefined. */
export function attributeNameProblem(name: string, allowed: readonly string[]): string | undefined {
  return allowed.includes(name) ? undefined : customNameProblem(name);
}

/**
 * A CommonJS module's `exports.default` from `import * as ns`: Node puts
 * module.exports on `ns.default`, esbuild (with __esModule) may put the
 * default export itself there. ajv's runtime helpers are such modules.
 */
export function cjsDefault<T>(ns: { default?: unknown }): T {
  const value = ns.default as { default?: unknown } | undefined;
  return (value !== null && typeof value === 'object' && 'default' in value ? value.default : value) as T;
}
