/**
 * Web push (docs/api.md, "Web push"): what a stored token is, which push
 * endpoints the service will call, what a notification carries, and the
 * ports send_push works through.
 */
import { createHash } from 'node:crypto';
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
  /** One push service request, at most. */
  requestTimeoutMs: 4000,
  /**
   * What send_push keeps of the function's remaining time after its last
   * send: the stream write and the answer. Sends not started by then are
   * abandoned (`unsent`), so a slow push service never runs the function out
   * of time after some pushes went out.
   */
  deadlineMarginMs: 2000,
  /** How long a delivery is remembered: a caller's retry with the same notification id comes within this. */
  deliveryClaimSeconds: 48 * 3600,
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

/**
 * The browsers' push services (docs/api.md, "Web push"): Chrome's FCM (and
 * its older GCM host), Firefox's autopush, Safari's Apple web push, Edge's WNS.
 * `*.` matches any name under the suffix, never the suffix itself.
 */
export const browserPushServices = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'updates.push.services.mozilla.com',
  '*.push.services.mozilla.com',
  '*.push.apple.com',
  '*.notify.windows.com',
] as const;

/** Which hosts push endpoints may be on: the browsers' push services and those an operator configured. */
export interface PushEndpointPolicy {
  readonly hosts: readonly string[];
}

const HOST_PATTERN = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The policy from the operator's hosts (comma- or space-separated host names
 * or `*.suffix`, e.g. the local push service's `localhost`); a malformed entry
 * throws, naming it, so a function fails at cold start rather than refusing
 * every token.
 */
export function pushEndpointPolicy(configured: string): PushEndpointPolicy {
  const extra = configured
    .split(/[\s,]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
  for (const entry of extra) {
    if (!HOST_PATTERN.test(entry) && entry !== '[::1]') throw new Error(`push endpoint host ${JSON.stringify(entry)} is not a host name or *.suffix`);
  }
  return { hosts: [...browserPushServices, ...extra] };
}

function hostAllowed(pattern: string, host: string): boolean {
  return pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1 : host === pattern;
}

/**
 * Why the service will not POST to an endpoint, or undefined when it will.
 * Tokens come from browsers and integrators, so an endpoint is untrusted
 * input: only a push service's host over HTTPS, never a host of the caller's
 * choosing (SSRF, or a slow endpoint holding a send). Plain HTTP only to a
 * loopback host the operator configured (the local stack's push service); in
 * Lambda the loopback host is the runtime API, and the CDK stack refuses it.
 */
export function endpointProblem(endpoint: string, policy: PushEndpointPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'endpoint is not a URL';
  }
  if (url.username || url.password) return 'endpoint carries credentials';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'endpoint is not HTTPS';
  if (!policy.hosts.some((pattern) => hostAllowed(pattern, url.hostname))) return 'endpoint host is not a push service';
  if (url.protocol === 'https:' || LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return 'endpoint is not HTTPS';
}

const WEB_TOKENS = 'urm_web_push_notification_token';
/** Where a profile record adds web push tokens (urm_remove takes any away). */
const addingDirectives = ['urm_set', 'urm_set_if_null', 'urm_append', 'urm_unique_append'] as const;

/** Why a token may not be stored: a subscription (a JSON object with an endpoint) whose endpoint is refused. */
function storedTokenProblem(token: unknown, policy: PushEndpointPolicy): string | undefined {
  if (typeof token !== 'string') return undefined; // the schema refuses it
  let value: unknown;
  try {
    value = JSON.parse(token);
  } catch {
    return undefined; // an opaque token: never sent to
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !('endpoint' in value)) return undefined;
  const endpoint = (value as { endpoint: unknown }).endpoint;
  return typeof endpoint === 'string' ? endpointProblem(endpoint, policy) : 'endpoint is not a URL';
}

/**
 * The web push tokens a profile record (at `index` of the body) adds whose
 * endpoint the service would never call, each named by its place:
 * `[0].urm_unique_append.urm_web_push_notification_token[1] endpoint host is not a push service`.
 */
export function addedWebTokenProblems(record: Record<string, unknown>, index: number, policy: PushEndpointPolicy): string[] {
  const places: [string, unknown][] = [[`[${index}].${WEB_TOKENS}`, record[WEB_TOKENS]]];
  for (const directive of addingDirectives) {
    const values = record[directive] as Record<string, unknown> | undefined;
    if (values && typeof values === 'object') places.push([`[${index}].${directive}.${WEB_TOKENS}`, values[WEB_TOKENS]]);
  }
  const problems: string[] = [];
  for (const [place, tokens] of places) {
    if (!Array.isArray(tokens)) continue;
    tokens.forEach((token, i) => {
      const problem = storedTokenProblem(token, policy);
      if (problem) problems.push(`${place}[${i}] ${problem}`);
    });
  }
  return problems;
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
  /** This send's bound, when shorter than the sender's own (send_push's deadline is nearer). */
  timeoutMs?: number;
}

/**
 * How one push service answered: `gone` is 404 or 410, a subscription that
 * will never work again. A failure is `maybeDelivered` when the request may
 * have reached the push service (no answer before the timeout).
 */
export type PushOutcome = { status: 'sent' } | { status: 'gone' } | { status: 'failed'; reason: string; maybeDelivered?: true };

/** Port: delivers one encrypted message to one subscription's push service. */
export interface PushSender {
  send(subscription: PushSubscriptionJson, payload: string, options: PushOptions): Promise<PushOutcome>;
}

/**
 * Port: one delivery of a notification to a subscription, recorded (with a
 * conditional write) before it is sent, so a retried send_push with the same
 * notification id never delivers to the same subscription twice.
 */
export interface DeliveryClaims {
  /** true when this call claimed the delivery; false when an earlier one had. */
  claim(appId: string, notificationId: string, subscription: string): Promise<boolean>;
  /** Gives the delivery back after a definite failure, so a retry may try again. */
  release(appId: string, notificationId: string, subscription: string): Promise<void>;
}

/** What names a subscription in a delivery claim: the SHA-256 of its endpoint (the push service's id for it), never the token. */
export function subscriptionKey(endpoint: string): string {
  return createHash('sha256').update(endpoint).digest('base64url');
}

/** Port: an application's VAPID key pair and subject; undefined when the application has none. */
export interface VapidKeyring {
  forApp(appId: string): Promise<VapidDetails | undefined>;
}

/** The name under which an application's VAPID private key is kept in the SecretStore. */
export function vapidPrivateKeySecret(appId: string): string {
  return `apps/${appId}/vapid-private-key`;
}

/** Every application's VAPID private key name: what a function that generates them may write (operations.ts, secretWrites). */
export const vapidPrivateKeyPattern = vapidPrivateKeySecret('*');

/** The web push tokens of a profile's attributes (anything that is not a string is ignored). */
export function webPushTokens(attributes: Record<string, AttributeValue | null>): string[] {
  const tokens = attributes.urm_web_push_notification_token;
  return Array.isArray(tokens) ? tokens.filter((token): token is string => typeof token === 'string') : [];
}
