/**
 * The records the SDK writes: profile records with the push attributes, and
 * lifecycle events. The strings are the service's (functions/domain/push.ts),
 * written again here because importing that module's values would bundle its
 * other constants too; test/unit/web-sdk/records.test.ts keeps them equal.
 */
import type { PushPayload } from '../../../functions/domain/push';
export const TOKENS = 'urm_web_push_notification_token';
export const RECEIVES = 'urm_receives_notifications';
export const IOS_TOKENS = 'urm_ios_push_notification_token';
export const ANDROID_TOKENS = 'urm_android_push_notification_token';
/** Where a profile record carries the proof of its profile id (docs/api.md, "The browser key"). */
export const PROOF = 'urm_profile_id_hash';

/** Anonymous visitors: merged into the known profile once it is set (docs/api.md, "The SDK"). */
export const ANONYMOUS_PREFIX = 'urm-anon-';

export type Fields = Record<string, unknown>;

export function profileRecord(appId: string, profileId: string, fields: Fields, now: Date): Fields {
  return { app_id: appId, profile_id: profileId, urm_date_time: now.toISOString(), ...fields };
}

export const lifecycleEvents = {
  received: 'urm_push_received',
  clicked: 'urm_push_clicked',
  dismissed: 'urm_push_dismissed',
} as const;
export type LifecycleKind = keyof typeof lifecycleEvents;

/** What a push message carries: the service's type, so the two cannot drift. */
export type { PushPayload };

/**
 * One lifecycle event. Its insert id is the notification id and the kind, so
 * a report sent twice (a retry after a lost answer) is stored once.
 */
export function lifecycleEvent(kind: LifecycleKind, appId: string, payload: PushPayload, now: Date): Fields {
  return {
    app_id: appId,
    profile_id: payload.profile_id,
    event: lifecycleEvents[kind],
    urm_date_time: now.toISOString(),
    urm_insert_id: `${payload.notification_id}:${kind}`,
    notification_id: payload.notification_id,
    ...(payload.url ? { url: payload.url } : {}),
  };
}
