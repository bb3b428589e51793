/**
 * In-memory implementations of the enterprise ports, with the same contracts
 * as the DynamoDB adapters (one email per application, a token consumed once
 * and only before it expires), so cores are tested without a mock library.
 */
import type { App, AppStore } from '../../functions/shared/domain/apps';
import {
  emailKey,
  type EnterpriseUser,
  type EnterpriseUserStore,
  type PortalSession,
  type SessionStore,
  type SignInTokenStore,
  type StoredSignInToken,
  type TokenConsumption,
} from '../../functions/shared/domain/enterprise';

export class MemoryUserStore implements EnterpriseUserStore {
  readonly users = new Map<string, EnterpriseUser>();
  readonly claims = new Map<string, string>();

  async get(appId: string, userId: string) {
    return this.users.get(`${appId}#${userId}`);
  }

  async findByEmail(appId: string, email: string) {
    const userId = this.claims.get(`${appId}#${emailKey(email)}`);
    return userId ? this.get(appId, userId) : undefined;
  }

  async create(user: EnterpriseUser) {
    const claim = `${user.app_id}#${emailKey(user.email)}`;
    if (this.claims.has(claim)) return false;
    this.claims.set(claim, user.user_id);
    this.users.set(`${user.app_id}#${user.user_id}`, user);
    return true;
  }
}

export class MemoryTokenStore implements SignInTokenStore {
  readonly tokens = new Map<string, StoredSignInToken>();

  async put(token: StoredSignInToken) {
    this.tokens.set(token.token_hash, { ...token });
  }

  async consume(tokenHash: string, now: Date): Promise<TokenConsumption> {
    const token = this.tokens.get(tokenHash);
    if (!token) return { outcome: 'unknown' };
    if (token.used_at) return { outcome: 'used' };
    if (token.expires_at <= now.toISOString()) return { outcome: 'expired' };
    token.used_at = now.toISOString();
    return { outcome: 'consumed', token: { ...token } };
  }
}

export class MemorySessionStore implements SessionStore {
  readonly sessions = new Map<string, PortalSession>();

  async put(session: PortalSession) {
    this.sessions.set(session.session_hash, session);
  }

  async get(sessionHash: string) {
    return this.sessions.get(sessionHash);
  }

  async delete(sessionHash: string) {
    const session = this.sessions.get(sessionHash);
    this.sessions.delete(sessionHash);
    return session;
  }
}

export function memoryApps(apps: App[]): Pick<AppStore, 'get'> {
  return { get: async (appId) => apps.find((app) => app.app_id === appId) };
}

/** A clock the test moves by hand. */
export class FakeClock {
  constructor(private current: Date) {}

  readonly now = () => new Date(this.current);

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** Ids in sequence: `usr_1`, `usr_2`, … */
export function sequentialIds(prefix: string): () => string {
  let next = 0;
  return () => `${prefix}${++next}`;
}
