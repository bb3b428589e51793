/**
 * A rendered webhook template, sent (docs/api.md, "Webhooks"): the webhook
 * gate for the player (functions/domain/webhooks.ts `decideWebhook`), the
 * message id claimed as every gated send claims it, then one signed POST
 * through the postbacks' HTTP (allowed hosts, resolver check, pinned address,
 * deadline, bounded read). At most once: the claim is taken before the call
 * and given back only when the call surely sent nothing (refused, not
 * resolved, no connection); a receiver that answered, or may have, keeps it.
 */
import type { ProfileStore } from '../domain/timeline';
import { toStreamEntries, type RecordWriter } from '../domain/ingest';
import { hostOf, type PostbackResponse } from '../domain/postbacks';
import type { DeliveryClaims } from '../domain/push';
import type { SecretStore } from '../domain/secrets';
import { partitionKey } from '../domain/stream-record';
import { decideWebhook, WEBHOOK_SENT_EVENT, webhookSecretName, webhookSignature } from '../domain/webhooks';
import { MESSAGE_CLAIM, recordSuppression, webhookSentInsertId } from './gated';
import type { WebhookSend } from './send-template';

/** Port: one POST under the postbacks' rules (functions/adapters/postback-http.ts `PostbackHttp`). */
export interface WebhookTransport {
  post(url: string, headers: Record<string, string>, body: string): Promise<PostbackResponse>;
}

export interface WebhookPorts {
  profiles: Pick<ProfileStore, 'get'>;
  messageClaims: DeliveryClaims;
  secrets: Pick<SecretStore, 'get'>;
  transport: WebhookTransport;
  writer: RecordWriter;
  newId: () => string;
  /** The application's clock (functions/runtime/clock.ts `nowFor`): what the gate reads RG end dates against. */
  appTime: (appId: string) => Date;
  /** Wall time: the signature's timestamp, the secret cache. */
  now?: () => Date;
}

/** A rotated secret signs within this long: one parameter read per application and minute, not per webhook. */
export const webhookSecretCacheMs = 60_000;

const succeeded = (response: PostbackResponse): response is { status: number } => 'status' in response && response.status >= 200 && response.status < 300;

export function webhookSender(ports: WebhookPorts): WebhookSend {
  const now = ports.now ?? (() => new Date());
  const suppressed = recordSuppression(ports);
  const secrets = new Map<string, { value: string | undefined; until: number }>();
  async function secretOf(appId: string): Promise<string | undefined> {
    const cached = secrets.get(appId);
    if (cached && cached.until > now().getTime()) return cached.value;
    const value = await ports.secrets.get(webhookSecretName(appId));
    if (secrets.size > 1000) secrets.clear();
    // A missing secret is not cached: the operator who makes one is heard at the next send.
    if (value !== undefined) secrets.set(appId, { value, until: now().getTime() + webhookSecretCacheMs });
    return value;
  }

  return async (request) => {
    const { appId, profileId, messageId, purpose } = request;
    // Consistent: an exclusion the stream applied a moment ago is honoured.
    const stored = await ports.profiles.get(partitionKey(appId, profileId), true);
    const attributes = stored?.exists ? (JSON.parse(stored.attrs) as Record<string, never>) : undefined;
    const at = ports.appTime(appId);
    const answer = decideWebhook({ attributes, purpose, ...(request.topic !== undefined ? { topic: request.topic } : {}), now: at });
    if (answer.verdict === 'refuse') {
      await suppressed(request, 'webhook', at, answer.reason, answer.detail);
      return { status: 'suppressed', reason: answer.reason, detail: answer.detail };
    }

    const secret = await secretOf(appId);
    if (secret === undefined) {
      return { status: 'failed', reason: 'webhook', detail: 'the application has no webhook signing secret (npm run admin -- app webhook-secret)' };
    }
    if (!(await ports.messageClaims.claim(appId, messageId, MESSAGE_CLAIM))) return { status: 'duplicate' };
    const release = () => ports.messageClaims.release(appId, messageId, MESSAGE_CLAIM).catch(() => undefined);

    const timestamp = String(Math.floor(now().getTime() / 1000));
    const headers = {
      'content-type': 'application/json',
      'X-Urm-Message-Id': messageId,
      'X-Urm-Timestamp': timestamp,
      'X-Urm-Signature': webhookSignature(secret, timestamp, request.body),
    };
    let response: PostbackResponse;
    try {
      response = await ports.transport.post(request.url, headers, request.body);
    } catch (error) {
      // The transport answers every network outcome; a throw is a bug before any byte left.
      await release();
      throw error;
    }
    // The transport refused a URL that does not parse (unsent); no throw here may strand the claim.
    const host = URL.canParse(request.url) ? hostOf(new URL(request.url)) : 'the webhook URL';
    if (!succeeded(response)) {
      if ('error' in response && response.unsent) await release();
      const detail = 'status' in response ? `${host} answered ${response.status}` : `${host}: ${response.error}`;
      return { status: 'failed', reason: 'webhook', detail };
    }

    const sentAt = now();
    const event = {
      app_id: appId,
      profile_id: profileId,
      event: WEBHOOK_SENT_EVENT,
      urm_date_time: sentAt.toISOString(),
      urm_insert_id: webhookSentInsertId(messageId),
      channel: 'webhook',
      host,
      status_code: response.status,
      purpose,
      ...(request.topic !== undefined ? { topic: request.topic } : {}),
      message_id: messageId,
      ...request.sentBy,
    };
    // The webhook is out: a lost event is reported as not recorded, never as a failure to retry.
    const receipt = await ports.writer.write(toStreamEntries('event', [event], appId, { newId: ports.newId, now: () => sentAt })).catch(() => undefined);
    return { status: 'sent', recorded: receipt !== undefined && receipt.FailedRecordCount === 0, event };
  };
}
