/**
 * PushSender with the `web-push` library: it encrypts the payload (aes128gcm)
 * and signs the VAPID header; the request itself goes out with fetch, bounded
 * in time and never following a redirect, to an endpoint that passed the
 * endpoint policy (functions/domain/push.ts).
 */
import webpush from 'web-push';
import { endpointProblem, type PushEndpointPolicy, type PushOptions, type PushOutcome, type PushSender, type PushSubscriptionJson } from '../domain/push';

export interface WebPushSenderOptions {
  /** The push services it may call; send_push skips other endpoints before, this is the last word. */
  endpoints: PushEndpointPolicy;
  timeoutMs: number;
  fetch?: typeof fetch;
}

export class WebPushSender implements PushSender {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: WebPushSenderOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  async send(subscription: PushSubscriptionJson, payload: string, options: PushOptions): Promise<PushOutcome> {
    const problem = endpointProblem(subscription.endpoint, this.options.endpoints);
    if (problem) return { status: 'failed', reason: `the ${problem}` };
    let details: ReturnType<typeof webpush.generateRequestDetails>;
    try {
      details = webpush.generateRequestDetails(subscription, payload, {
        TTL: options.ttl,
        urgency: options.urgency,
        contentEncoding: 'aes128gcm',
        vapidDetails: options.vapid,
      });
    } catch (error) {
      // A public key that is not a P-256 point, an auth secret of the wrong size.
      return { status: 'failed', reason: `the subscription cannot be encrypted to: ${(error as Error).message}` };
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(details.headers)) {
      // fetch sets the length of the body itself.
      if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
    }
    try {
      const response = await this.fetch(details.endpoint, {
        method: 'POST',
        headers,
        body: details.body ? new Uint8Array(details.body) : undefined,
        redirect: 'error',
        signal: AbortSignal.timeout(Math.min(options.timeoutMs ?? this.options.timeoutMs, this.options.timeoutMs)),
      });
      await response.body?.cancel();
      if (response.status === 404 || response.status === 410) return { status: 'gone' };
      if (response.ok) return { status: 'sent' };
      return { status: 'failed', reason: `the push service answered ${response.status}` };
    } catch (error) {
      const name = (error as Error).name;
      // No answer in time: the message may have reached the push service all the same.
      const maybeDelivered = name === 'TimeoutError' || name === 'AbortError';
      return { status: 'failed', reason: `the push service could not be reached: ${name}`, ...(maybeDelivered ? { maybeDelivered: true as const } : {}) };
    }
  }
}
