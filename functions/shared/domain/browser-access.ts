/**
 * What a browser key may write (docs/api.md, "The browser key"): the push
 * SDK's records and nothing more. A browser key sits in a web page for anyone
 * to read, so it may only touch the push attributes, merge anonymous visitor
 * profiles, and report the notification lifecycle. Anything beyond is a 403,
 * like any other out-of-scope call.
 */
import { directives, writableSystemAttributes } from './attributes';
import { Forbidden } from './errors';
import { ANONYMOUS_PROFILE_PREFIX, lifecycleEvents, parseSubscription, pushLimits } from './push';

const pushAttributes = new Set<string>(writableSystemAttributes);
const WEB_TOKENS = 'urm_web_push_notification_token';

/** Top-level names of a profile record written with a browser key. */
const profileFields = new Set<string>([
  'app_id',
  'profile_id',
  'urm_date_time',
  'urm_insert_id',
  ...writableSystemAttributes,
  ...directives.filter((directive) => directive !== 'urm_add' && directive !== 'urm_delete_profile'),
]);
const nameListDirectives = new Set<string>(['urm_unset', 'urm_delete']);
/** Where a browser adds tokens: each must be a push subscription it could have made. */
const addingPlaces = new Set<string>(['top level', 'urm_set', 'urm_set_if_null', 'urm_append', 'urm_unique_append']);

function tokensAreSubscriptions(value: unknown): boolean {
  return Array.isArray(value) && value.every((token) => typeof token === 'string' && typeof parseSubscription(token) !== 'string');
}

/** Why a browser key may not write this profile record, or undefined when it may. */
export function browserProfileRefusal(record: Record<string, unknown>): string | undefined {
  for (const [field, value] of Object.entries(record)) {
    if (!profileFields.has(field)) return `${field} is not writable with a browser key`;
    if (pushAttributes.has(field)) {
      if (field === WEB_TOKENS && !tokensAreSubscriptions(value)) return `${field} must hold push subscriptions`;
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
      if (!(value as string[]).every((name) => pushAttributes.has(name))) return `${field} may only name push attributes`;
      continue;
    }
    if (directives.includes(field as (typeof directives)[number])) {
      for (const [name, inner] of Object.entries(value as Record<string, unknown>)) {
        if (!pushAttributes.has(name)) return `${field} may only name push attributes`;
        if (!addingPlaces.has(field)) continue;
        if (name === WEB_TOKENS && !tokensAreSubscriptions(inner)) return `${field}.${name} must hold push subscriptions`;
        // The SDK empties the iOS and Android tokens (disablePushNotificationPermanentAllDevice), never adds any.
        if (name !== WEB_TOKENS && name !== 'urm_receives_notifications' && !(Array.isArray(inner) && inner.length === 0)) {
          return `${field}.${name} may only be emptied with a browser key`;
        }
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

/** Throws Forbidden when a browser key's request holds anything but the push SDK's records. */
export function assertBrowserMayWrite(kind: 'profile' | 'event', records: Record<string, unknown>[]): void {
  const refusal = kind === 'profile' ? browserProfileRefusal : browserEventRefusal;
  if (records.some((record) => refusal(record) !== undefined)) throw new Forbidden();
}
