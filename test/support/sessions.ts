/**
 * The session and one-time-token ports in memory, with the contracts of their
 * DynamoDB adapters (DynamoSessionStore, DynamoOneTimeTokenStore): an id or
 * hash is put once, `last_seen` never moves back, a token is consumed once
 * and only before it expires. One fake each for the console's and the
 * affiliate portal's records.
 */
import { tokenUse, type OneTimeToken, type OneTimeTokenStore, type TokenConsumption } from '../../functions/domain/one-time-tokens';
import type { SessionRecord, SessionStore } from '../../functions/domain/sessions';

export class MemorySessionStore<S extends SessionRecord> implements SessionStore<S> {
  readonly sessions = new Map<string, S>();

  async put(session: S) {
    if (this.sessions.has(session.session_hash)) throw new Error('a session with this hash is stored already');
    this.sessions.set(session.session_hash, { ...session });
  }

  async get(sessionHash: string) {
    const session = this.sessions.get(sessionHash);
    return session && { ...session };
  }

  async touch(sessionHash: string, at: Date) {
    const session = this.sessions.get(sessionHash);
    const seen = at.toISOString();
    if (session && (session.last_seen === undefined || session.last_seen < seen)) this.sessions.set(sessionHash, { ...session, last_seen: seen });
  }

  async delete(sessionHash: string) {
    const session = this.sessions.get(sessionHash);
    this.sessions.delete(sessionHash);
    return session;
  }
}

export class MemoryOneTimeTokenStore<T extends OneTimeToken> implements OneTimeTokenStore<T> {
  readonly tokens = new Map<string, T>();

  async put(token: T) {
    if (this.tokens.has(token.token_hash)) throw new Error('a token with this hash is stored already');
    this.tokens.set(token.token_hash, { ...token });
  }

  async peek(tokenHash: string, now: Date): Promise<TokenConsumption<T>> {
    const found = tokenUse(this.tokens.get(tokenHash), now);
    return found.outcome === 'consumed' ? { outcome: 'consumed', token: { ...found.token } } : found;
  }

  async consume(tokenHash: string, now: Date): Promise<TokenConsumption<T>> {
    const found = tokenUse(this.tokens.get(tokenHash), now);
    if (found.outcome !== 'consumed') return found;
    const used = { ...found.token, used_at: now.toISOString() };
    this.tokens.set(tokenHash, used);
    return { outcome: 'consumed', token: { ...used } };
  }
}
