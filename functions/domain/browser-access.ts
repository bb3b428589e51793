/**
 * What a browser key may write (docs/api.md, "The browser key"): the push
 * SDK's records and nothing more. A browser key sits in a web page for anyone
 * to read, so it may only touch the push attributes of its own subscription,
 * merge anonymous visitor profiles, and report the notification lifecycle;
 * and it writes a known profile only with the proof the integrator's server
 * gave the page (./identity.ts). Anything beyond is a 403, like any other
 * out-of-scope call.
 */
import { createHash } from 'node:crypto';
import { BROWSER_INSERT_ID_PREFIX, directives, pushSystemAttributes } from './attributes';
import { Forbidden } from './errors';
import { needsProof, PROOF_FIELD, proofMatches, type IdentityKeyring } from './identity';
import { ANONYMOUS_PROFILE_PREFIX, lifecycleEvents, parseSubscription, pushLimits } from './push';

const pushAttributes = new Set<string>(pushSystemAttributes);
const WEB_TOKENS = 'urm_web_push_notification_token';
const RECEIVES = 'urm_receives_notifications';

/** Top-level names of a profile record written with a browser key. */
const profileFields = new Set<string>([
  'app_id',
  'profile_id',
  'urm_date_time',
  'urm_insert_id',
  PROOF_FIELD,
  ...pushSystemAttributes,
  ...directives.filter((directive) => directive !== 'urm_add' && directive !== 'urm_delete_profile'),
]);
const nameListDirectives = new Set<string>(['urm_unset', 'urm_delete']);
/** Where a token list replaces the profile's: only emptying it (every device, with the proof) is a browser's to do. */
const replacingPlaces = new Set<string>(['top level', 'urm_set']);

function tokensAreSubscriptions(value: unknown): boolean {
  return Array.isArray(value) && value.every((token) => typeof token === 'string' && typeof parseSubscription(token) !== 'string');
}

/**
 * Why a browser may not write the push attribute `name` with `value` at
 * `place`, or undefined when it may. A browser changes its own subscription
 * only: it adds a push subscription it made, removes one it presents whole
 * (endpoint and keys, which no other page knows), or empties the profile's
 * tokens (every device); it never names a token it could not have made.
 */
function pushChangeRefusal(place: string, name: string, value: unknown): string | undefined {
  if (name === RECEIVES) return undefined;
  if (replacingPlaces.has(place)) {
    return Array.isArray(value) && value.length === 0 ? undefined : `${place} ${name} may only be emptied with a browser key`;
  }
  if (name !== WEB_TOKENS) return Array.isArray(value) && value.length === 0 ? undefined : `${place}.${name} may only be emptied with a browser key`;
  return tokensAreSubscriptions(value) ? undefined : `${place}.${name} must hold push subscriptions`;
}

/** Why a browser key may not write this profile record, or undefined when it may (the proof aside: assertBrowserProvesIdentity). */
export function browserProfileRefusal(record: Record<string, unknown>): string | undefined {
  for (const [field, value] of Object.entries(record)) {
    if (!profileFields.has(field)) return `${field} is not writable with a browser key`;
    if (pushAttributes.has(field)) {
      const refusal = pushChangeRefusal('top level', field, value);
      if (refusal) return refusal;
      continue;
    }
    if (field === 'urm_merge') {
      const sources = value as string[];
      if (!sources.every((id) => id.startsWith(ANONYMOUS_PROFILE_PREFIX))) {
        return `urm_merge may only name anonymous visitor profiles (${ANONYMOUS_PROFILE_PREFIX}…)`;
      }
      continue;
    }
    if (nameListDirectives.has(field)) {
      // Unsetting a token list would drop every device's tokens by another road than emptying them.
      if (!(value as string[]).every((name) => name === RECEIVES)) return `${field} may only name ${RECEIVES}`;
      continue;
    }
    if (directives.includes(field as (typeof directives)[number])) {
      for (const [name, inner] of Object.entries(value as Record<string, unknown>)) {
        if (!pushAttributes.has(name)) return `${field} may only name push attributes`;
        const refusal = pushChangeRefusal(field, name, inner);
        if (refusal) return refusal;
      }
    }
  }
  return undefined;
}

const eventNames = new Set<string>(Object.values(lifecycleEvents));
const eventFields = new Set(['app_id', 'profile_id', 'event', 'urm_date_time', 'urm_insert_id', 'notification_id', 'url']);

/** Why a browser key may not write this event, or undefined when it may. */
export function browserEventRefusal(record: Record<string, unknown>): string | undefined {
  if (!eventNames.has(record.event as string)) return 'only notification lifecycle events may be written with a browser key';
  for (const field of Object.keys(record)) {
    if (!eventFields.has(field)) return `${field} is not writable with a browser key`;
  }
  if (typeof record.notification_id !== 'string' || record.notification_id.length === 0 || record.notification_id.length > 128) {
    return 'notification_id must be a string of 1 to 128 characters';
  }
  if (record.url !== undefined && (typeof record.url !== 'string' || record.url.length > pushLimits.urlLength)) {
    return `url must be a string of at most ${pushLimits.urlLength} characters`;
  }
  return undefined;
}

/**
 * Throws Forbidden unless every profile record of a known (not anonymous)
 * profile carries the proof of exactly its profile_id, when the application
 * verifies identity. One missing or wrong proof refuses the whole request.
 */
export async function assertBrowserProvesIdentity(
  records: { profile_id: string; [field: string]: unknown }[],
  appId: string,
  identity: IdentityKeyring,
): Promise<void> {
  const known = records.filter((record) => needsProof(record.profile_id));
  if (known.length === 0) return;
  const verification = await identity.forApp(appId);
  if (!verification.required) return;
  const { secret } = verification;
  if (!secret || !known.every((record) => proofMatches(secret, record.profile_id, record[PROOF_FIELD]))) throw new Forbidden();
}

/** Throws Forbidden when a browser key's request holds anything but the push SDK's records. */
export function assertBrowserMayWrite(kind: 'profile' | 'event', records: Record<string, unknown>[]): void {
  const refusal = kind === 'profile' ? browserProfileRefusal : browserEventRefusal;
  if (records.some((record) => refusal(record) !== undefined)) throw new Forbidden();
}

const browserInsertId = (...parts: string[]) => `${BROWSER_INSERT_ID_PREFIX}${createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32)}`;

/**
 * The insert id a browser key's lifecycle event is stored under, whatever id it
 * was sent with: derived from its notification and kind, in the namespace no
 * request may write. So a report stored twice (the worker's retry, or a copy
 * under another id) is one event, and no server-key event is its duplicate.
 */
export function browserEventInsertId(record: { event: string; notification_id?: unknown }): string {
  return browserInsertId('event', record.event, String(record.notification_id));
}

/**
 * The insert id a browser key's profile record is stored under: the one it was
 * sent with (or `fresh`, when none), moved into the namespace no request may
 * write, so a re-sent record is still applied once and never stands for a
 * server-key record.
 */
export function browserProfileInsertId(record: { urm_insert_id?: string }, fresh: () => string): string {
  return browserInsertId('profile', record.urm_insert_id ?? fresh());
}
