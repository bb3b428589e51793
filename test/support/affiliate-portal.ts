/**
 * The affiliate portal's ports in memory, with the contracts of their
 * DynamoDB adapters (accounts, sessions, sign-in attempts, reset tokens), and
 * the portal's one function built on them with every other port in memory
 * too, for tests that drive its router as API Gateway would.
 */
import { hashSecret, newSecret } from '../../functions/domain/secrets-random';
import { makeAffiliatePortalHandler, type AffiliatePortalPorts } from '../../functions/affiliate-portal/make-handler';
import { MemoryPayoutStore, MemoryStatementStore } from './statements';
import type {
  AffiliateAccounts,
  AffiliateProfile,
  AffiliateSession,
  AffiliateSessionStore,
  AttemptWindow,
  ResetToken,
  SignInAttempts,
} from '../../functions/domain/affiliate-portal';
import { affiliateContactFields, uniquenessKey, type AffiliateRecord } from '../../functions/domain/affiliates';
import type { App } from '../../functions/domain/apps';
import { MemoryAffiliateStore, MemoryAppStore, MemoryFunnel, MemoryLinkStore, MemoryPlanStore } from './affiliates';
import { FakeClock, MemoryAuditLog } from './enterprise';
import { apiEvent, context } from './lambda';
import { MemoryMailer } from './messaging';
import { MemoryChannelStore, MemorySenderStore } from './settings';
import { MemoryPostbackOutbox, MemoryPostbackSettings } from './postbacks';
import { MemoryStream } from './memory-stream';
import { MemoryProfiles } from './players';
import { MemorySecretStore } from './secrets';
import { MemoryOneTimeTokenStore, MemorySessionStore } from './sessions';

/** The affiliates as the portal reads them, over the very records of a MemoryAffiliateStore (one table, two ports). */
export class MemoryAffiliateAccounts implements AffiliateAccounts {
  constructor(readonly store = new MemoryAffiliateStore()) {}

  /** The records by `app_id#affiliate_id`. */
  get byId(): Map<string, AffiliateRecord> {
    return this.store.affiliates;
  }

  add(affiliate: AffiliateRecord): void {
    this.byId.set(`${affiliate.app_id}#${affiliate.affiliate_id}`, affiliate);
  }

  async findByLogin(appId: string, login: string) {
    const key = uniquenessKey(login);
    const mine = [...this.byId.values()].filter((a) => a.app_id === appId);
    return mine.find((a) => uniquenessKey(a.username) === key) ?? mine.find((a) => uniquenessKey(a.email) === key);
  }

  async findByEmail(appId: string, email: string) {
    return [...this.byId.values()].find((a) => a.app_id === appId && uniquenessKey(a.email) === uniquenessKey(email));
  }

  async get(appId: string, affiliateId: string) {
    return this.byId.get(`${appId}#${affiliateId}`);
  }

  async setPasswordHash(appId: string, affiliateId: string, passwordHash: string) {
    const affiliate = this.byId.get(`${appId}#${affiliateId}`);
    if (affiliate) affiliate.password_hash = passwordHash;
  }

  async setProfile(appId: string, affiliateId: string, profile: AffiliateProfile) {
    const affiliate = this.byId.get(`${appId}#${affiliateId}`);
    if (!affiliate) return;
    for (const field of affiliateContactFields) delete affiliate[field];
    Object.assign(affiliate, Object.fromEntries(Object.entries(profile).filter(([, value]) => value !== undefined)));
  }
}

/** The sessions' fake, with the `by-affiliate` index's use: a reset ends all of an affiliate's sessions. */
export class MemoryAffiliateSessionStore extends MemorySessionStore<AffiliateSession> implements AffiliateSessionStore {
  async deleteAllOf(appId: string, affiliateId: string) {
    const mine = [...this.sessions.values()].filter((s) => s.app_id === appId && s.affiliate_id === affiliateId);
    for (const session of mine) this.sessions.delete(session.session_hash);
    return mine.length;
  }
}

/** DynamoSignInAttempts' contract: each call reads and writes its window in one step, as its conditional writes do. */
export class MemorySignInAttempts implements SignInAttempts {
  readonly windows = new Map<string, AttemptWindow>();

  private live(key: string, now: Date): AttemptWindow | undefined {
    const window = this.windows.get(key);
    return window && window.ends_at > now.toISOString() ? window : undefined;
  }

  async current(keys: string[], now: Date) {
    return keys.map((key) => {
      const window = this.live(key, now);
      return window && { ...window };
    });
  }

  async admit(key: string, limit: number, now: Date, windowMs: number) {
    const window = this.live(key, now);
    if (window && window.attempts >= limit) return { admitted: false, window: { ...window } };
    if (window) window.attempts += 1;
    else this.windows.set(key, { attempts: 1, failures: 0, ends_at: new Date(now.getTime() + windowMs).toISOString() });
    return { admitted: true, window: { ...this.windows.get(key)! } };
  }

  async release(key: string, endsAt: string) {
    const window = this.windows.get(key);
    if (window && window.ends_at === endsAt && window.attempts > 0) window.attempts -= 1;
  }

  async recordFailure(key: string, now: Date, windowMs: number) {
    const window = this.live(key, now);
    if (window) window.failures += 1;
    else this.windows.set(key, { attempts: 1, failures: 1, ends_at: new Date(now.getTime() + windowMs).toISOString() });
    return { ...this.windows.get(key)! };
  }

  async clear(key: string) {
    this.windows.delete(key);
  }
}

// Cheap stand-ins for scrypt: the portal only passes hashes through.
export const fakePasswords = {
  hash: async (password: string) => `hash:${password}`,
  verify: async (password: string, stored: string) => stored === `hash:${password}`,
};

/** An affiliate of app_1 (no status: approved, as before statuses) whose password is `correct horse` under fakePasswords. */
export const portalAffiliate = (overrides: Partial<AffiliateRecord> = {}): AffiliateRecord => ({
  app_id: 'app_1',
  affiliate_id: 'aff_1',
  email: 'ada@example.com',
  username: 'ada',
  first_name: 'Ada',
  last_name: 'Lovelace',
  password_hash: 'hash:correct horse',
  created_at: '2026-01-01T00:00:00Z',
  ...overrides,
});

export const portalApps: App[] = [
  { app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z', site_origins: ['https://casino.example'], portal_origin: 'http://127.0.0.1:3000' },
];

/**
 * The portal's one function on in-memory ports, with one approved affiliate
 * (portalAffiliate) and a clock the test moves; `browse` sends it a request
 * as API Gateway would (a form posted url-encoded).
 */
export function memoryPortal(apps: App[] = portalApps) {
  const clock = new FakeClock(new Date('2026-11-23T08:00:00.000Z'));
  const accounts = new MemoryAffiliateAccounts();
  accounts.add(portalAffiliate());
  const settings = new MemoryPostbackSettings();
  // The affiliate's item exists, without a postback URL.
  settings.urls.set('app_1#aff_1', undefined);
  const ports = {
    apps: new MemoryAppStore(apps),
    accounts,
    affiliates: accounts.store,
    plans: new MemoryPlanStore(),
    funnel: new MemoryFunnel(),
    links: new MemoryLinkStore(),
    sessions: new MemoryAffiliateSessionStore(),
    attempts: new MemorySignInAttempts(),
    resetTokens: new MemoryOneTimeTokenStore<ResetToken>(),
    channels: new MemoryChannelStore(),
    // The operator assigned app_1 its domain: its channels may send from it.
    senders: new MemorySenderStore([{ app_id: 'app_1', sender: 'casino.example', kind: 'domain', assigned_at: '2026-01-01T00:00:00.000Z' }]),
    mailer: new MemoryMailer(),
    postbacks: { settings, log: new MemoryPostbackOutbox() },
    secrets: new MemorySecretStore(),
    profiles: new MemoryProfiles(),
    writer: new MemoryStream(),
    statements: new MemoryStatementStore(),
    payouts: new MemoryPayoutStore(),
    audit: new MemoryAuditLog(),
    now: clock.now,
    passwords: fakePasswords,
  } satisfies AffiliatePortalPorts;
  const handler = makeAffiliatePortalHandler(ports);

  const browse = (method: string, path: string, options: { cookie?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}) =>
    handler(
      apiEvent({
        method,
        path,
        headers: {
          ...(options.cookie ? { Cookie: options.cookie } : {}),
          ...(options.form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
          ...options.headers,
        },
        body: options.form ? new URLSearchParams(options.form).toString() : undefined,
      }),
      context('AffiliatePortalFunction'),
    );

  return { ...ports, clock, handler, browse };
}

/** The `name=value` of each Set-Cookie of an answer, by name. */
export function cookiesSet(response: { multiValueHeaders?: Record<string, (string | number | boolean)[]> }): Record<string, string> {
  const lines = (response.multiValueHeaders?.['Set-Cookie'] ?? []).map(String);
  return Object.fromEntries(lines.map((line) => line.split(';')[0]).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

/** The CSRF token of the form on a page. */
export function csrfOf(html: string): string {
  const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error('the page has no CSRF token');
  return token;
}

/** A live session of aff_1 of app_1 on `portal`, as the sign-in starts one: its id and the cookie a browser sends. */
export async function affiliateSession(portal: ReturnType<typeof memoryPortal>): Promise<{ sessionId: string; cookie: string }> {
  const sessionId = newSecret();
  const now = portal.clock.now().toISOString();
  await portal.sessions.put({
    session_hash: hashSecret(sessionId),
    app_id: 'app_1',
    affiliate_id: 'aff_1',
    created_at: now,
    last_seen: now,
    cookie_secure: false,
  });
  return { sessionId, cookie: `urm_aff_session=${sessionId}` };
}
