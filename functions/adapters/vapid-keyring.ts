import type { AppStore } from '../domain/apps';
import { vapidPrivateKeySecret, type VapidDetails, type VapidKeyring } from '../domain/push';
import type { SecretStore } from '../domain/secrets';

/**
 * An application's VAPID keys: the public key and subject from its
 * application record, the private key from the SecretStore. Kept a few
 * minutes per container, so a send costs no secret read; a rotated key is
 * used within that time.
 */
export class AppVapidKeyring implements VapidKeyring {
  private readonly cache = new Map<string, { details: VapidDetails | undefined; expires: number }>();

  constructor(
    private readonly apps: Pick<AppStore, 'get'>,
    private readonly secrets: Pick<SecretStore, 'get'>,
    private readonly options = { ttlMs: 5 * 60_000, maxEntries: 1000, now: Date.now },
  ) {}

  async forApp(appId: string): Promise<VapidDetails | undefined> {
    const now = this.options.now();
    const cached = this.cache.get(appId);
    if (cached && cached.expires > now) return cached.details;
    const details = await this.load(appId);
    if (this.cache.size >= this.options.maxEntries) this.cache.clear();
    this.cache.set(appId, { details, expires: now + this.options.ttlMs });
    return details;
  }

  private async load(appId: string): Promise<VapidDetails | undefined> {
    const app = await this.apps.get(appId);
    if (!app?.vapid_public_key || !app.vapid_subject) return undefined;
    const privateKey = await this.secrets.get(vapidPrivateKeySecret(appId));
    // The admin tool stores the private key before it publishes the public one: this is an operator's problem, not the caller's.
    if (!privateKey) throw new Error(`the VAPID private key of ${appId} is missing from the secret store`);
    return { subject: app.vapid_subject, publicKey: app.vapid_public_key, privateKey };
  }
}
