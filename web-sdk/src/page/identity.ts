/**
 * Who this browser is for the service: the known profile id once the site
 * sets one (with the proof the site's server gave for it), until then an
 * anonymous visitor id (`urm-anon-` + UUID), and the push token last stored
 * for this browser. Kept in localStorage per application: the SDK acts for
 * the known profile on later pages too, as the page that set it could.
 */
import { ANONYMOUS_PREFIX } from '../shared/records';

export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface ProfileChange {
  /** The anonymous profile to merge into the new one. */
  mergeFrom?: string;
  /** The known profile this browser belonged to before, whose token moves to the new one. */
  left?: string;
  /** The proof of `left`, if the site gave one. */
  leftProof?: string;
}

export class Identity {
  constructor(
    private readonly store: KeyValueStore,
    private readonly appId: string,
    private readonly newId: () => string,
  ) {}

  private key(name: string): string {
    return `urm:${this.appId}:${name}`;
  }

  /** The known profile id, or the anonymous one (made and kept on first use). */
  profileId(): string {
    const known = this.store.getItem(this.key('profile'));
    if (known) return known;
    let anonymous = this.store.getItem(this.key('anon'));
    if (!anonymous) {
      anonymous = `${ANONYMOUS_PREFIX}${this.newId()}`;
      this.store.setItem(this.key('anon'), anonymous);
    }
    return anonymous;
  }

  /** Makes `id` (proved by `proof`, if given) this browser's profile, and says what the service must be told. */
  adopt(id: string, proof?: string): ProfileChange {
    const anonymous = this.store.getItem(this.key('anon'));
    const known = this.store.getItem(this.key('profile'));
    const knownProof = this.store.getItem(this.key('proof'));
    this.store.setItem(this.key('profile'), id);
    this.store.removeItem(this.key('anon'));
    // The same id without a proof keeps the one it had; a new id starts without one.
    if (proof) this.store.setItem(this.key('proof'), proof);
    else if (known !== id) this.store.removeItem(this.key('proof'));
    return {
      ...(anonymous && anonymous !== id ? { mergeFrom: anonymous } : {}),
      ...(known && known !== id ? { left: known, ...(knownProof ? { leftProof: knownProof } : {}) } : {}),
    };
  }

  /** The proof of the known profile `id`, if the site gave one. */
  proofOf(id: string): string | undefined {
    return this.store.getItem(this.key('profile')) === id ? (this.store.getItem(this.key('proof')) ?? undefined) : undefined;
  }

  token(): string | null {
    return this.store.getItem(this.key('token'));
  }

  setToken(token: string | null): void {
    if (token === null) this.store.removeItem(this.key('token'));
    else this.store.setItem(this.key('token'), token);
  }
}
