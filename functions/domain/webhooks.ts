/**
 * Webhook templates as urm sends them (docs/api.md, "Webhooks"): the
 * application's signing secret, the signature a receiver checks, and which of
 * the send gate's rules a webhook about a player passes. A webhook reaches a
 * server, not the player, so rules about an address (suppression, a device),
 * the local clock (quiet hours) and per-channel caps do not apply; what the
 * player said about being marketed to does.
 */
import { randomBytes } from 'node:crypto';
import type { AttributeValue } from './attributes';
import { postbackSignature } from './postbacks';
import { activeRgStatus, rgDetail, type GateAnswer, type Purpose } from './send-gate';

/** The timeline event of a webhook the receiver accepted (2xx): `status_code`, `message_id`, `purpose`, the campaign's ids. */
export const WEBHOOK_SENT_EVENT = 'urm_webhook_sent';

export function webhookSecretName(appId: string): string {
  return `apps/${appId}/webhook-secret`;
}

/** Every application's webhook secret: what the senders read and the command line writes (operations.ts). */
export const webhookSecretPattern = webhookSecretName('*');

/** A new signing secret: 256 random bits, prefixed so that secret scanners know it. */
export function newWebhookSecret(): string {
  return `urm_webhook_${randomBytes(32).toString('base64url')}`;
}

/**
 * `sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>`, the X-Urm-Signature header: the postbacks' scheme,
 * with the raw body where a postback has its URL (a webhook's URL is fixed; what the receiver acts on is the body).
 */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return postbackSignature(secret, timestamp, body);
}

/** The consents a player gives urm's channels: any one of them `true` is consent to marketing that reaches them. */
export const marketingConsentAttributes = ['urm_consent_email', 'urm_consent_sms', 'urm_receives_notifications'] as const;

/**
 * The gate for a webhook about a player. Both purposes: no such player → `no_player`. Marketing: an active RG
 * status → `rg_status`; no marketing consent on any channel (none of marketingConsentAttributes is `true`) →
 * `no_consent`; the topic left → `unsubscribed`. Never deferred, never capped.
 */
export function decideWebhook(input: {
  attributes: Record<string, AttributeValue | null | undefined> | undefined;
  purpose: Purpose;
  topic?: string;
  now: Date;
}): GateAnswer {
  const { attributes } = input;
  if (!attributes) return { verdict: 'refuse', reason: 'no_player', detail: 'no such player' };
  if (input.purpose !== 'marketing') return { verdict: 'send' };
  const rg = activeRgStatus(attributes, input.now);
  if (rg) return { verdict: 'refuse', reason: 'rg_status', detail: rgDetail(rg) };
  if (!marketingConsentAttributes.some((name) => attributes[name] === true)) {
    return { verdict: 'refuse', reason: 'no_consent', detail: `no marketing consent (none of ${marketingConsentAttributes.join(', ')} is true)` };
  }
  const left = attributes.urm_unsubscribed_topics;
  if (input.topic !== undefined && Array.isArray(left) && left.includes(input.topic)) {
    return { verdict: 'refuse', reason: 'unsubscribed', detail: `unsubscribed from ${input.topic}` };
  }
  return { verdict: 'send' };
}
