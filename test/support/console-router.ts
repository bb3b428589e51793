/**
 * The console's one function (functions/console/make-handler.ts) over
 * in-memory ports, for unit tests: an application `app_1`, its users signed
 * in by role, and calls as the browser makes them (the session cookie, the
 * CSRF token on a POST), answered through the router and every route's
 * middleware.
 */
import { MemoryCampaignResults } from './campaign-results';
import { MemoryPayoutStore, MemoryStatementStore } from './statements';
import { fakeUnsubscribe, MemoryDeferredOutbox, MemorySentCounts } from './send-gate';
import { randomUUID } from 'node:crypto';
import type { AffiliateRecord } from '../../functions/domain/affiliates';
import type { App } from '../../functions/domain/apps';
import type { PortalSession, Role } from '../../functions/domain/enterprise';
import { pushEndpointPolicy } from '../../functions/domain/push';
import { hashSecret, newSecret } from '../../functions/domain/secrets-random';
import { consoleCsrf } from '../../functions/domain/sessions';
import { makeConsoleHandler, type ConsolePorts } from '../../functions/console/make-handler';
import { MemoryFunnelStore } from './funnel-store';
import { MemorySubIds } from './programme';
import { MemoryJourneyStore } from './journey-store';
import { MemoryAffiliateStore, MemoryAppStore, MemoryFunnel, MemoryLinkStore, MemoryPlanStore, MemoryStatementLock } from './affiliates';
import { FakeClock, MemoryAuditLog, MemoryUserStore } from './enterprise';
import { apiEvent, context } from './lambda';
import { MemoryStream } from './memory-stream';
import { fixedVapid, MemoryDeliveryClaims, MemoryMailer, MemoryPushSender, MemorySentActions } from './messaging';
import { MemoryProfiles, MemoryRejectionLog, MemoryTimeline } from './players';
import { MemoryPlayerSearch } from './player-search';
import { MemoryPostbackOutbox, MemoryPostbackSettings } from './postbacks';
import { MemorySegmentStore } from './segments';
import { MemoryBroadcastStore } from './broadcasts';
import { MemoryTemplateStore } from './templates';
import { MemorySessionStore } from './sessions';
import { MemoryChannelStore, MemoryKeyStore, MemorySecretStore, MemorySenderStore } from './settings';

export interface ConsoleCaller {
  userId: string;
  cookie: string;
  csrf: string;
}

export interface ConsoleCall {
  /** A JSON body (sent with Content-Type application/json). */
  body?: unknown;
  /** A body as sent, byte for byte (with no Content-Type of its own). */
  rawBody?: string;
  /** The CSRF token to send: the caller's by default on a POST; false sends none. */
  csrf?: string | false;
  headers?: Record<string, string>;
  /** Who calls: the admin by default; null sends no cookie. */
  as?: ConsoleCaller | null;
}

export interface ConsoleAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body, parsed when it is JSON. */
  body: any;
  text: string;
}

export const consoleApp: App = {
  app_id: 'app_1',
  name: 'Casino',
  created_at: '2026-01-01T00:00:00.000Z',
  currency: 'EUR',
  site_origins: ['https://casino.example'],
  portal_origin: 'https://portal.casino.example',
};

/** Every port of the console in memory, as fakes a test can arrange and read back. */
export function memoryConsolePorts(clock = new FakeClock(new Date('2026-11-21T10:00:00.000Z'))) {
  const fakes = {
    clock,
    sessions: new MemorySessionStore<PortalSession>(),
    users: new MemoryUserStore(),
    apps: new MemoryAppStore([{ ...consoleApp }]),
    keys: new MemoryKeyStore(),
    channels: new MemoryChannelStore(),
    senders: new MemorySenderStore(),
    secrets: new MemorySecretStore(),
    plans: new MemoryPlanStore(),
    statementLock: new MemoryStatementLock(),
    affiliates: new MemoryAffiliateStore(),
    links: new MemoryLinkStore(),
    funnel: new MemoryFunnel(),
    /** The funnel consumer's ledgers (a player's lifetime money). */
    ledgers: new MemoryFunnelStore(),
    postbackSettings: new MemoryPostbackSettings(),
    postbackLog: new MemoryPostbackOutbox(),
    profiles: new MemoryProfiles(),
    search: new MemoryPlayerSearch(),
    timeline: new MemoryTimeline(),
    rejections: new MemoryRejectionLog(),
    segments: new MemorySegmentStore(),
    journeys: new MemoryJourneyStore(),
    broadcasts: new MemoryBroadcastStore(),
    templates: new MemoryTemplateStore(),
    stream: new MemoryStream(),
    mailer: new MemoryMailer(),
    actions: new MemorySentActions(),
    claims: new MemoryDeliveryClaims(),
    pusher: new MemoryPushSender(),
    audit: new MemoryAuditLog(),
    sentCounts: new MemorySentCounts(),
    counts: new MemorySentCounts(),
    messageClaims: new MemoryDeliveryClaims(),
    outbox: new MemoryDeferredOutbox(),
    unsubscribe: fakeUnsubscribe,
    results: new MemoryCampaignResults(),
    subIds: new MemorySubIds(),
    statements: new MemoryStatementStore(),
    payouts: new MemoryPayoutStore(),
  };
  const ports: ConsolePorts = {
    ...fakes,
    now: clock.now,
    postbacks: { settings: fakes.postbackSettings, log: fakes.postbackLog, allowedHosts: [] },
    directory: fakes.profiles,
    playerCounts: fakes.profiles,
    appMoney: fakes.ledgers,
    writer: fakes.stream,
    vapid: fixedVapid(),
    endpoints: pushEndpointPolicy(''),
    newId: randomUUID,
    appTime: () => clock.now(),
  };
  return { ...fakes, ports };
}

/** The console's function over fresh in-memory ports, and a way to call it as a signed-in user. */
export function consoleRouter() {
  const fakes = memoryConsolePorts();
  const handler = makeConsoleHandler(fakes.ports);

  /** A user of `app_1` with this role, signed in: a live session in the store and its cookie. */
  const signIn = async (role: Role, email = `${role}@example.com`): Promise<ConsoleCaller> => {
    const userId = `usr_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    const user = await fakes.users.create({
      app_id: 'app_1',
      user_id: userId,
      email,
      first_name: 'Ada',
      last_name: 'L',
      created_at: fakes.clock.now().toISOString(),
      role,
    });
    if (!user) throw new Error(`${email} is signed up already`);
    const sessionId = newSecret();
    const now = fakes.clock.now();
    await fakes.sessions.put({
      session_hash: hashSecret(sessionId),
      app_id: 'app_1',
      user_id: userId,
      created_at: now.toISOString(),
      last_seen: now.toISOString(),
      expires_at: new Date(now.getTime() + 12 * 3_600_000).toISOString(),
      cookie_secure: true,
    });
    return { userId, cookie: `urm_portal_session=${sessionId}`, csrf: consoleCsrf.tokenFor(sessionId) };
  };

  /** Gives `caller` another role from now on, as `npm run admin -- portal role` would. */
  const setRole = (caller: ConsoleCaller, role: Role): void => {
    const key = `app_1#${caller.userId}`;
    fakes.users.users.set(key, { ...fakes.users.users.get(key)!, role });
  };

  let admin: ConsoleCaller | undefined;
  /** The admin every call is made as unless told otherwise (signed in on first use). */
  const theAdmin = async (): Promise<ConsoleCaller> => {
    admin ??= await signIn('admin', 'ada@example.com');
    return admin;
  };

  /** A request through the router, as API Gateway hands it over (`path` may carry a query string). */
  const call = async (method: string, path: string, options: ConsoleCall = {}): Promise<ConsoleAnswer> => {
    const caller = options.as === undefined ? await theAdmin() : options.as;
    const csrf = options.csrf ?? (method === 'POST' && caller ? caller.csrf : false);
    const event = apiEvent({
      method,
      path,
      headers: {
        Host: 'api.example.test',
        ...(caller ? { Cookie: caller.cookie } : {}),
        ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(csrf === false ? {} : { 'X-CSRF-Token': csrf }),
        ...options.headers,
      },
      body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
    // As API Gateway sends every path under it: the resource is the proxy, and the router finds the route.
    event.resource = '/console/api/{proxy+}';
    event.pathParameters = { proxy: event.path.slice('/console/api/'.length) };
    const response = await handler(event, context('Console'));
    const headers = Object.fromEntries(Object.entries(response.headers ?? {}).map(([name, value]) => [name, String(value)]));
    let body: unknown = response.body;
    if (headers['Content-Type']?.startsWith('application/json')) body = JSON.parse(response.body);
    return { status: response.statusCode, headers, body, text: response.body };
  };

  /** An affiliate of the application (app_1 unless given), pending unless given; its postback URL lives on the same item, as in the table. */
  const addAffiliate = async (affiliate: Partial<AffiliateRecord> & Pick<AffiliateRecord, 'affiliate_id'>, postbackUrl?: string): Promise<AffiliateRecord> => {
    const record: AffiliateRecord = {
      app_id: 'app_1',
      email: `${affiliate.affiliate_id}@example.com`,
      username: affiliate.affiliate_id,
      first_name: 'Bo',
      last_name: 'B',
      password_hash: 'scrypt$secret-hash',
      created_at: '2026-11-01T00:00:00.000Z',
      status: 'pending',
      ...affiliate,
    };
    await fakes.affiliates.register(record);
    fakes.postbackSettings.urls.set(`${record.app_id}#${record.affiliate_id}`, postbackUrl);
    return record;
  };

  return { ...fakes, handler, signIn, setRole, call, addAffiliate, admin: theAdmin };
}
