/**
 * Web push (docs/api.md, "Web push"): what a stored token is, which push
 * endpoints the service will call, what a notification carries, and the
 * ports send_push works through.
 */
import type { AttributeValue } from './attributes';

/** The notification lifecycle events the service worker reports, by kind. */
export const lifecycleEvents = {
  received: 'urm_push_received',
  clicked: 'urm_push_clicked',
  dismissed: 'urm_push_dismissed',
} as const;
export type LifecycleKind = keyof typeof lifecycleEvents;

/** Recorded by send_push on the profile's timeline. */
export const PUSH_SENT_EVENT = 'urm_push_sent';

/** The 404 of send_push and GET /push/config for an application without VAPID keys (`npm run admin -- push vapid`). */
export const PUSH_NOT_CONFIGURED = 'web push is not configured for this application';

/** Anonymous visitors of the push SDK: the only profiles a browser key may merge. */
export const ANONYMOUS_PROFILE_PREFIX = 'urm-anon-';

export const pushLimits = {
  titleLength: 256,
  bodyLength: 2048,
  urlLength: 2048,
  /**
   * The JSON payload, before encryption. A push service must accept 4096
   * bytes of encrypted body; aes128gcm takes 86 bytes of header and 17 of
   * padding delimiter and tag, which leaves 3993. The rest is a margin.
   */
  payloadBytes: 3900,
  /** 28 days: what push services keep a message at most. */
  maxTtlSeconds: 28 * 24 * 3600,
  defaultTtlSeconds: 24 * 3600,
  /** Tokens sent to at the same time. */
  concurrency: 20,
  /** One push service request. */
  requestTimeoutMs: 4000,
} as const;

export const urgencies = ['very-low', 'low', 'normal', 'high'] as const;
export type Urgency = (typeof urgencies)[number];

/** A browser push subscription, as `PushSubscription.toJSON()` gives it. */
export interface PushSubscriptionJson {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** The subscription a stored token holds, or why it holds none. */
export function parseSubscription(token: string): PushSubscriptionJson | string {
  let value: unknown;
  try {
    value = JSON.parse(token);
  } catch {
    return 'the token is not JSON';
  }
  const candidate = value as Partial<PushSubscriptionJson> | null;
  if (candidate === null || typeof candidate !== 'object' || Array.isArray(candidate)) return 'the token is not a JSON object';
  if (typeof candidate.endpoint !== 'string') return 'the token has no endpoint';
  let url: URL;
  try {
    url = new URL(candidate.endpoint);
  } catch {
    return 'the endpoint is not a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'the endpoint is not an http(s) URL';
  const keys = candidate.keys;
  if (!keys || typeof keys.p256dh !== 'string' || typeof keys.auth !== 'string') return 'the token has no p256dh and auth keys';
  if (!BASE64URL.test(keys.p256dh) || !BASE64URL.test(keys.auth)) return 'the keys are not base64url';
  return { endpoint: candidate.endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const IP_LITERAL = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;

/**
 * Why the service will not POST to an endpoint, or undefined when it will.
 * Tokens come from browsers, so an endpoint is untrusted input: it must be
 * HTTPS to a named host. Plain HTTP to the loopback host is allowed only when
 * configured (the local stack, whose push service runs on this machine); in
 * Lambda the loopback host is the runtime API, never a push service.
 */
export function endpointProblem(endpoint: string, allowLoopbackHttp: boolean): string | undefined {
  const url = new URL(endpoint);
  if (url.username || url.password) return 'the endpoint carries credentials';
  if (url.protocol === 'http:') {
    return allowLoopbackHttp && LOOPBACK_HOSTS.has(url.hostname) ? undefined : 'the endpoint is not HTTPS';
  }
  if (url.protocol !== 'https:') return 'the endpoint is not HTTPS';
  if (IP_LITERAL.test(url.hostname) || LOOPBACK_HOSTS.has(url.hostname)) return 'the endpoint is not a named host';
  return undefined;
}

/** What the service worker receives, encrypted, in a push message. */
export interface PushPayload {
  notification_id: string;
  profile_id: string;
  title: string;
  body: string;
  url?: string;
  icon?: string;
}

export interface VapidDetails {
  subject: string;
  publicKey: string;
  privateKey: string;
}

export interface PushOptions {
  ttl: number;
  urgency: Urgency;
  vapid: VapidDetails;
}

/** How one push service answered: `gone` is 404 or 410, a subscription that will never work again. */
export type PushOutcome = { status: 'sent' } | { status: 'gone' } | { status: 'failed'; reason: string };

/** Port: delivers one encrypted message to one subscription's push service. */
export interface PushSender {
  send(subscription: PushSubscriptionJson, payload: string, options: PushOptions): Promise<PushOutcome>;
}

/** Port: an application's VAPID key pair and subject; undefined when the application has none. */
export interface VapidKeyring {
  forApp(appId: string): Promise<VapidDetails | undefined>;
}

/** The name under which an application's VAPID private key is kept in the SecretStore. */
export function vapidPrivateKeySecret(appId: string): string {
  return `apps/${appId}/vapid-private-key`;
}

/** The web push tokens of a profile's attributes (anything that is not a string is ignored). */
export function webPushTokens(attributes: Record<string, AttributeValue | null>): string[] {
  const tokens = attributes.urm_web_push_notification_token;
  return Array.isArray(tokens) ? tokens.filter((token): token is string => typeof token === 'string') : [];
}
