/**
 * Text the service refuses rather than stores (docs/api.md, "Records" and
 * "Security: key checks, body bounds, logs"): a body that is not UTF-8, and
 * identifiers or event names with control characters, unpaired surrogates,
 * or characters that change how an identifier reads without being seen.
 * Identifiers are opaque otherwise: never trimmed or normalised.
 */

import { isUtf8 } from 'node:buffer';

/**
 * What an identifier may not hold, as Unicode-aware regular expression
 * classes: controls (Cc: C0, DEL, C1), format characters (Cf: the bidi
 * controls U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069; the
 * zero-width U+200B–U+200D, U+2060, U+FEFF; the soft hyphen; tag characters),
 * the line and paragraph separators (Zl, Zp), the Hangul fillers that render
 * as nothing (U+115F, U+1160, U+3164, U+FFA0), and a surrogate code point.
 * Under ajv's `u` flag (and any Unicode-aware ECMA-262 engine) a surrogate
 * pair is one code point above U+FFFF, so only an unpaired surrogate falls in
 * U+D800–U+DFFF. Compile it only with the `u` flag: without it `\p{Cc}` is
 * read as plain letters.
 */
export const identifierPattern = '^[^\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\u115F\\u1160\\u3164\\uFFA0\\uD800-\\uDFFF]*$';

/**
 * The same rule in the escapes every regular-expression dialect reads (no `\p{…}`, no `u` flag needed): what
 * the OpenAPI document shows, so that code generators and browsers (Swagger UI compiles patterns without `u`;
 * Python's `re` knows no `\p`) check what the service checks. Exact over the Basic Multilingual Plane (a test
 * compares it with identifierPattern at every code point); the few format characters above U+FFFF (tag
 * characters U+E0001, U+E0020–U+E007F, and U+110BD, U+110CD, U+13430–U+1343F, U+1BCA0–U+1BCA3,
 * U+1D173–U+1D17A) cannot be written portably and are refused by the service, as the description says.
 */
export const portableIdentifierPattern =
  '^[^\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890-\\u0891\\u08E2\\u115F-\\u1160\\u180E\\u200B-\\u200F\\u2028-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\u3164\\uFEFF\\uFFA0\\uFFF9-\\uFFFB\\uD800-\\uDFFF]*$';

/** Spread into an identifier's schema: the OpenAPI document shows portableIdentifierPattern in its place. */
export const identifierText = {
  pattern: identifierPattern,
  description:
    'an opaque identifier: any characters but controls (Unicode Cc), format characters (Cf: bidi controls such as U+202E and U+2066–U+2069, zero-width characters such as U+200B and U+FEFF), line and paragraph separators (U+2028, U+2029), the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, the format characters above U+FFFF (tag characters among them), and unpaired surrogates; compared as sent, never normalised',
} as const;

export const identifierProblem = 'must not contain control characters, bidi controls, invisible characters or unpaired surrogates';

/**
 * The bytes as a string, or undefined when they are not well-formed UTF-8 (no replacement characters, no surrogates).
 * A byte order mark stays. isUtf8 (simdutf) then a plain decode: an order of magnitude faster than a fatal TextDecoder.
 */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  if (!isUtf8(bytes)) return undefined;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
