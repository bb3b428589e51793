/** Push subscriptions as tokens: one canonical JSON string per subscription, so equal tokens compare equal on the profile. */
export interface SubscriptionJson {
  endpoint?: string;
  keys?: Record<string, string>;
}

/** The token stored on the profile: endpoint and keys, always in this order, nothing else. */
export function tokenOf(subscription: SubscriptionJson): string {
  const keys = subscription.keys ?? {};
  if (!subscription.endpoint || !keys.p256dh || !keys.auth) throw new Error('urmNotification: the push subscription has no endpoint or keys');
  return JSON.stringify({ endpoint: subscription.endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } });
}

export function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (value.length % 4)) % 4);
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Whether a subscription was made with this application server key. */
export function sameKey(current: ArrayBuffer | null | undefined, key: Uint8Array): boolean {
  if (!current || current.byteLength !== key.length) return false;
  const bytes = new Uint8Array(current);
  return bytes.every((byte, i) => byte === key[i]);
}
