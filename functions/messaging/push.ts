/**
 * One web push notification to every web push token of a profile, unless the
 * profile said no (`urm_receives_notifications: false`): what
 * `POST /api/send_push` (an integrator's call) and the back office's "push a
 * player" both do. Tokens whose push service answers 404 or 410 are removed
 * from the profile through the stream, like any profile change, and the send
 * goes on the timeline as `urm_push_sent`.
 */
import pLimit from 'p-limit';
import type { AttributeValue } from '../domain/attributes';
import { NotFound, ValidationError } from '../domain/errors';
import { toStreamEntries, type RecordWriter, type StreamEntry } from '../domain/ingest';
import {
  endpointProblem,
  parseSubscription,
  PUSH_NOT_CONFIGURED,
  PUSH_SENT_EVENT,
  pushLimits,
  webPushTokens,
  subscriptionKey,
  type DeliveryClaims,
  type PushEndpointPolicy,
  type PushOutcome,
  type PushPayload,
  type PushSender,
  urgencies,
  type Urgency,
  type VapidKeyring,
} from '../domain/push';
import { partitionKey } from '../domain/stream-record';
import type { ProfileStore } from '../domain/timeline';

/** Where a click leads, and the icon: absolute http(s) URLs. */
const webUrlSchema = {
  type: 'string',
  format: 'uri',
  maxLength: pushLimits.urlLength,
  pattern: '^https?://',
  description: 'an absolute http:// or https:// URL',
} as const;

/** The JSON Schema properties of a notification's fields: send_push's and the back office's bodies both carry them. */
export const pushMessageProperties = {
  title: { type: 'string', minLength: 1, maxLength: pushLimits.titleLength },
  body: { type: 'string', maxLength: pushLimits.bodyLength },
  url: webUrlSchema,
  icon: webUrlSchema,
  ttl: { type: 'integer', minimum: 0, maximum: pushLimits.maxTtlSeconds },
  urgency: { enum: urgencies },
} as const;

/** One notification, as send_push's body carries it (without the application id). */
export interface PushMessage {
  profile_id: string;
  title: string;
  body: string;
  url?: string;
  icon?: string;
  /** Seconds the push service keeps the message for an offline device; default one day. */
  ttl?: number;
  urgency?: Urgency;
}

/** What became of the notification's tokens: send_push's answer. sent + failed + removed + unsent + skipped = tokens. */
export interface PushCounts {
  notification_id: string;
  sent: number;
  failed: number;
  removed: number;
  unsent: number;
  skipped: number;
}

export interface PushPorts {
  profiles: Pick<ProfileStore, 'get'>;
  vapid: VapidKeyring;
  pusher: PushSender;
  writer: RecordWriter;
  /** Each delivery is claimed before it is sent: a retry with the same notification id skips what was claimed. */
  claims: DeliveryClaims;
  /** Tokens stored before endpoints were checked may name any host: those are skipped, never called. */
  endpoints: PushEndpointPolicy;
  newId: () => string;
  now: () => Date;
  concurrency?: number;
}

export interface PushSent extends PushCounts {
  /** Why tokens failed, counted by reason: for the log, never the tokens themselves. */
  reasons: Record<string, number>;
  /** Set when the notification went out but the stream write (token removal, event) did not succeed. */
  recordError?: unknown;
  /** The `urm_push_sent` event written (or, with recordError, tried): a caller may write it again, under the same insert id. */
  event?: Record<string, unknown>;
}

/** The payload the service worker decrypts; bounded so that the encrypted message fits any push service. */
export function pushPayload(request: PushMessage, notificationId: string): string {
  const payload: PushPayload = {
    notification_id: notificationId,
    profile_id: request.profile_id,
    title: request.title,
    body: request.body,
    ...(request.url !== undefined ? { url: request.url } : {}),
    ...(request.icon !== undefined ? { icon: request.icon } : {}),
  };
  const json = JSON.stringify(payload);
  if (Buffer.byteLength(json, 'utf8') > pushLimits.payloadBytes) {
    throw new ValidationError([`title, body, url and icon together must fit a push message (at most ${pushLimits.payloadBytes} bytes of JSON with the ids)`]);
  }
  return json;
}

/** How long the invocation may still run: Lambda's `context.getRemainingTimeInMillis()`. */
export interface SendBudget {
  remainingMs: number;
}

/**
 * What became of one token: a push service's answer, not sent because the
 * deadline came first, or skipped because an earlier call with this
 * notification id claimed the subscription.
 */
type TokenOutcome = PushOutcome | { status: 'unsent' } | { status: 'skipped' };

export interface PushToProfileOptions {
  /** The notification's id: deliveries are claimed under it, so a retry with the same id never delivers twice. */
  notificationId: string;
  budget?: SendBudget;
  /** Added to the `urm_push_sent` event (who sent it from the back office). */
  eventAttributes?: Record<string, string>;
}

export function pushToProfile(deps: PushPorts) {
  return async (appId: string, request: PushMessage, call: PushToProfileOptions): Promise<PushSent> => {
    const deadline = deps.now().getTime() + (call.budget?.remainingMs ?? Number.POSITIVE_INFINITY) - pushLimits.deadlineMarginMs;
    const { notificationId } = call;
    const payload = pushPayload(request, notificationId);

    const vapid = await deps.vapid.forApp(appId);
    if (!vapid) throw new NotFound(PUSH_NOT_CONFIGURED);
    // Consistent: a token stored or removed just before is seen.
    const stored = await deps.profiles.get(partitionKey(appId, request.profile_id), true);
    if (!stored?.exists) throw new NotFound('profile not found');
    const attributes = JSON.parse(stored.attrs) as Record<string, AttributeValue | null>;

    const sent: PushSent = { notification_id: notificationId, sent: 0, failed: 0, removed: 0, unsent: 0, skipped: 0, reasons: {} };
    if (attributes.urm_receives_notifications === false) return sent;

    const tokens = webPushTokens(attributes);
    const options = { ttl: request.ttl ?? pushLimits.defaultTtlSeconds, urgency: request.urgency ?? 'normal', vapid } as const;
    // In token order, however the push services answer: `gone` pairs outcomes with tokens by index.
    // One deadline for the whole send: a token whose turn comes after it is not sent; each send ends by it.
    const outcomes = await pLimit(deps.concurrency ?? pushLimits.concurrency).map(tokens, async (token): Promise<TokenOutcome> => {
      const subscription = parseSubscription(token);
      if (typeof subscription === 'string') return { status: 'failed', reason: subscription };
      const refused = endpointProblem(subscription.endpoint, deps.endpoints);
      if (refused) return { status: 'failed', reason: `the ${refused}` };
      if (deadline - deps.now().getTime() <= 0) return { status: 'unsent' };
      const key = subscriptionKey(subscription.endpoint);
      try {
        if (!(await deps.claims.claim(appId, notificationId, key))) return { status: 'skipped' };
      } catch {
        return { status: 'failed', reason: 'the delivery could not be recorded' };
      }
      const left = deadline - deps.now().getTime();
      const outcome: PushOutcome =
        left <= 0
          ? { status: 'failed', reason: 'the deadline came' }
          : await deps.pusher.send(subscription, payload, { ...options, timeoutMs: Math.min(pushLimits.requestTimeoutMs, left) });
      // Not delivered for sure: a retry may try again. A send that may have arrived keeps its claim (at most once),
      // as does one whose release fails: a retry skips it rather than risk a second delivery.
      if (outcome.status === 'gone' || (outcome.status === 'failed' && !outcome.maybeDelivered)) {
        await deps.claims.release(appId, notificationId, key).catch(() => undefined);
      }
      return outcome;
    });
    const gone = tokens.filter((_, i) => outcomes[i].status === 'gone');
    for (const outcome of outcomes) {
      if (outcome.status === 'sent') sent.sent++;
      if (outcome.status === 'unsent') sent.unsent++;
      if (outcome.status === 'skipped') sent.skipped++;
      if (outcome.status === 'failed') {
        sent.failed++;
        sent.reasons[outcome.reason] = (sent.reasons[outcome.reason] ?? 0) + 1;
      }
    }

    // The notification is out: failing now would make the caller send it again. A failed write is reported instead.
    const at = deps.now();
    const stamp = { app_id: appId, profile_id: request.profile_id, urm_date_time: at.toISOString() };
    const ids = { newId: deps.newId, now: () => at };
    // A retry after pushes went out records under ids of its own, so the first call's event stays on the timeline.
    const retry = sent.skipped > 0 ? `:${deps.newId()}` : '';
    const entries: StreamEntry[] = [];
    if (gone.length > 0) {
      const removal = { ...stamp, urm_insert_id: `urm-push-${notificationId}-removed${retry}`, urm_remove: { urm_web_push_notification_token: gone } };
      entries.push(...toStreamEntries('profile', [removal], appId, ids));
    }
    const event = {
      ...stamp,
      event: PUSH_SENT_EVENT,
      urm_insert_id: `${notificationId}:sent${retry}`,
      notification_id: notificationId,
      title: request.title,
      ...(request.url !== undefined ? { url: request.url } : {}),
      tokens: tokens.length,
      sent: sent.sent,
      failed: sent.failed,
      gone: gone.length,
      unsent: sent.unsent,
      skipped: sent.skipped,
      ...call.eventAttributes,
    };
    sent.event = event;
    entries.push(...toStreamEntries('event', [event], appId, ids));
    try {
      const receipt = await deps.writer.write(entries);
      const removalWritten = gone.length > 0 && !('ErrorCode' in receipt.Records[0]);
      sent.removed = removalWritten ? gone.length : 0;
      if (receipt.FailedRecordCount > 0) sent.recordError = new Error(`the stream refused ${receipt.FailedRecordCount} record(s)`);
    } catch (error) {
      sent.recordError = error;
    }
    // Gone tokens whose removal was not written stay on the profile: they count as failed this time.
    sent.failed += gone.length - sent.removed;
    return sent;
  };
}
