/**
 * Text the service refuses rather than stores (docs/api.md, "Records" and
 * "Security: key checks, body bounds, logs"): a body that is not UTF-8, and
 * identifiers or event names with control characters or unpaired surrogates.
 * Identifiers are opaque otherwise: never trimmed or normalised.
 */

import { isUtf8 } from 'node:buffer';

/**
 * Not C0 controls, DEL, or a surrogate code point. Under ajv's `u` flag (and
 * any Unicode-aware ECMA-262 engine) a surrogate pair is one code point above
 * U+FFFF, so only an unpaired surrogate falls in U+D800–U+DFFF.
 */
export const identifierPattern = '^[^\\u0000-\\u001F\\u007F\\uD800-\\uDFFF]*$';

/** Spread into an identifier's schema: a pattern the OpenAPI document shows as is. */
export const identifierText = {
  pattern: identifierPattern,
  description:
    'an opaque identifier: any characters but control characters (U+0000–U+001F, U+007F) and unpaired surrogates; compared as sent, never normalised',
} as const;

export const identifierProblem = 'must not contain control characters or unpaired surrogates';

/**
 * The bytes as a string, or undefined when they are not well-formed UTF-8 (no replacement characters, no surrogates).
 * A byte order mark stays. isUtf8 (simdutf) then a plain decode: an order of magnitude faster than a fatal TextDecoder.
 */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  if (!isUtf8(bytes)) return undefined;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
