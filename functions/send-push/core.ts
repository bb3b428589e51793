/**
 * send_push: one notification to every web push token of a profile, unless
 * the profile said no (`urm_receives_notifications: false`). Tokens whose push
 * service answers 404 or 410 are removed from the profile through the stream,
 * like any profile change, and the send goes on the timeline as
 * `urm_push_sent`.
 */
import pLimit from 'p-limit';
import type { AttributeValue } from '../shared/domain/attributes';
import { Forbidden, NotFound, ValidationError } from '../shared/domain/errors';
import { toStreamEntries, type RecordWriter, type StreamEntry } from '../shared/domain/ingest';
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
  type VapidKeyring,
} from '../shared/domain/push';
import { partitionKey } from '../shared/domain/stream-record';
import type { ProfileStore } from '../shared/domain/timeline';
import type { SendPushRequest, SendPushResponse } from './schema';

export interface SendPushDeps {
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

export interface PushSent extends SendPushResponse {
  /** Why tokens failed, counted by reason: for the log, never the tokens themselves. */
  reasons: Record<string, number>;
  /** Set when the notification went out but the stream write (token removal, event) did not succeed. */
  recordError?: unknown;
}

/** The payload the service worker decrypts; bounded so that the encrypted message fits any push service. */
export function pushPayload(request: SendPushRequest, notificationId: string): string {
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
    throw new ValidationError([
      `title, body, url and icon together must fit a push message (at most ${pushLimits.payloadBytes} bytes of JSON with the ids)`,
    ]);
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

export function sendPush(deps: SendPushDeps) {
  return async (request: SendPushRequest, callerAppId: string, budget?: SendBudget): Promise<PushSent> => {
    const deadline = deps.now().getTime() + (budget?.remainingMs ?? Number.POSITIVE_INFINITY) - pushLimits.deadlineMarginMs;
    if (request.app_id !== callerAppId) throw new Forbidden();
    // A caller's own id makes a retry safe: deliveries are claimed under it.
    const notificationId = request.notification_id ?? deps.newId();
    const payload = pushPayload(request, notificationId);

    const vapid = await deps.vapid.forApp(request.app_id);
    if (!vapid) throw new NotFound(PUSH_NOT_CONFIGURED);
    // Consistent: a token stored or removed just before is seen.
    const stored = await deps.profiles.get(partitionKey(request.app_id, request.profile_id), true);
    if (!stored || !stored.exists) throw new NotFound('profile not found');
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
        if (!(await deps.claims.claim(request.app_id, notificationId, key))) return { status: 'skipped' };
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
        await deps.claims.release(request.app_id, notificationId, key).catch(() => undefined);
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
    const stamp = { app_id: request.app_id, profile_id: request.profile_id, urm_date_time: at.toISOString() };
    const ids = { newId: deps.newId, now: () => at };
    // A retry after pushes went out records under ids of its own, so the first call's event stays on the timeline.
    const retry = sent.skipped > 0 ? `:${deps.newId()}` : '';
    const entries: StreamEntry[] = [];
    if (gone.length > 0) {
      const removal = { ...stamp, urm_insert_id: `urm-push-${notificationId}-removed${retry}`, urm_remove: { urm_web_push_notification_token: gone } };
      entries.push(...toStreamEntries('profile', [removal], request.app_id, ids));
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
    };
    entries.push(...toStreamEntries('event', [event], request.app_id, ids));
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
