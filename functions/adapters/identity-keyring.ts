import type { AppStore } from '../domain/apps';
import { identitySecretName, type IdentityKeyring, type IdentityVerification } from '../domain/identity';
import type { SecretStore } from '../domain/secrets';

/**
 * An application's identity verification: on or off from its application
 * record, the secret from the SecretStore, read only when a browser key
 * writes a known profile. Kept a few minutes per container, like the VAPID
 * keys: a rotated secret or a change of setting applies within that time.
 */
export class AppIdentityKeyring implements IdentityKeyring {
  private readonly cache = new Map<string, { verification: Promise<IdentityVerification>; expires: number }>();

  constructor(
    private readonly apps: Pick<AppStore, 'get'>,
    private readonly secrets: Pick<SecretStore, 'get'>,
    private readonly options = { ttlMs: 5 * 60_000, maxEntries: 1000, now: Date.now },
  ) {}

  forApp(appId: string): Promise<IdentityVerification> {
    const now = this.options.now();
    const cached = this.cache.get(appId);
    if (cached && cached.expires > now) return cached.verification;
    const verification = this.load(appId);
    if (this.cache.size >= this.options.maxEntries) this.cache.clear();
    this.cache.set(appId, { verification, expires: now + this.options.ttlMs });
    // A failed read is not remembered: the next call tries again.
    verification.catch(() => {
      if (this.cache.get(appId)?.verification === verification) this.cache.delete(appId);
    });
    return verification;
  }

  private async load(appId: string): Promise<IdentityVerification> {
    const app = await this.apps.get(appId);
    if (app?.identity_verification === 'off') return { required: false };
    // No secret (an application made before identity verification): no proof can match until one is made.
    return { required: true, secret: await this.secrets.get(identitySecretName(appId)) };
  }
}
