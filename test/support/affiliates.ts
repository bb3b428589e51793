/**
 * The affiliate rules as tables (every rule with values accepted and rejected
 * at and around its bounds), shared by the unit tests of the validators and
 * the integration tests that send the same values over HTTP; and in-memory
 * ports with the contracts of the DynamoDB adapters.
 */
import { randomUUID } from 'node:crypto';
import {
  statusOf,
  toSummary,
  uniquenessKey,
  type AffiliateRecord,
  type AffiliateStore,
  type RegistrationOutcome,
  type UniqueAffiliateField,
} from '../../functions/domain/affiliates';
import type {
  AffiliateStatus,
  FtdRow,
  FunnelDayRow,
  FunnelReader,
  LinkRecord,
  LinkStore,
  Plan,
  RegistrationRow,
  SubIdDayRow,
} from '../../functions/domain/affiliate-program';
import type { App, AppStore } from '../../functions/domain/apps';
import { Conflict, NotFound } from '../../functions/domain/errors';
import type { ClickClaims } from '../../functions/domain/tracking-links';
import type { PlanStore } from '../../functions/domain/plans';
import { maxDeals, versionOf, type Deal, type StatementLock } from '../../functions/domain/deals';
import type { RegisterAffiliateInput } from '../../functions/back-office/affiliate-registration-schema';
import { noTrackingParameter } from '../../functions/api/set-affiliate/schema';
import { request } from './http';

/** Marks a field left out of the body. */
export const MISSING = Symbol('missing');

export interface RuleRow {
  field: string;
  accepted: unknown[];
  /** Value, and the one message the answer must hold. */
  rejected: [unknown, string][];
}

/** A body with `field` set to `value` (or left out). */
export function withField(body: Record<string, unknown>, field: string, value: unknown): Record<string, unknown> {
  const copy = { ...body };
  if (value === MISSING) delete copy[field];
  else copy[field] = value;
  return copy;
}

export const describeValue = (value: unknown) =>
  value === MISSING ? 'missing' : typeof value === 'string' && value.length > 40 ? `${value.length} characters` : JSON.stringify(value);

// ---- register_affiliate ------------------------------------------------

/** A valid register_affiliate body; tests may add or spoil any field. */
export type RegistrationBody = RegisterAffiliateInput & Record<string, unknown>;

/** A valid registration, unique by a fresh token. */
export function registration(appId: string, token = randomUUID().slice(0, 8)): RegistrationBody {
  return {
    app_id: appId,
    password: 'correct horse battery',
    email: `aff-${token}@example.com`,
    username: `aff_${token}`,
    first_name: 'Ada',
    last_name: 'Lovelace',
  };
}

/** An affiliate registered through POST /api/register_affiliate with the application's server key, as an integrator does; its id and username. */
export async function registerAffiliate(
  baseUrl: string,
  app: { appId: string; serverKey: string },
  extra: Record<string, unknown> = {},
): Promise<{ id: string; username: string }> {
  const body = { ...registration(app.appId), ...extra };
  const response = await request(baseUrl, 'POST', '/api/register_affiliate', { key: app.serverKey, body });
  if (response.status !== 200) throw new Error(`register_affiliate answered ${response.status}: ${JSON.stringify(response.body)}`);
  return { id: response.body.affiliate_id as string, username: body.username as string };
}

/** 64 + 1 + `domainLength` characters. */
const emailOf = (domainLength: number) => {
  const label = (c: string, n: number) => c.repeat(n);
  const domain = `${label('a', 63)}.${label('b', 63)}.${label('c', domainLength - 63 - 63 - 2 - 4)}.com`;
  return `${'l'.repeat(64)}@${domain}`;
};

const phoneRows = (field: string): RuleRow => {
  const message = `${field} must be + followed by 7 to 20 digits (spaces, dashes and parentheses allowed)`;
  return {
    field,
    accepted: ['+1234567', `+${'1'.repeat(20)}`, '+356 (21) 234-567', '+44 20 7946 0958', ' +35621234567 ', null, '', '   ', MISSING],
    rejected: [
      ['+123456', message],
      [`+${'1'.repeat(21)}`, message],
      ['35621234567', message],
      ['++35621234567', message],
      ['+356 21a34567', message],
      ['+356.2123.4567', message],
      [`+${'1-'.repeat(32)}`, `${field} must be at most 64 characters`],
      [35621234567, `${field} must be a string`],
    ],
  };
};

export const registrationRules: RuleRow[] = [
  {
    field: 'app_id',
    accepted: [],
    rejected: [
      ['', 'app_id must not be empty'],
      ['a'.repeat(65), 'app_id must be at most 64 characters'],
      [null, 'app_id must be a string'],
      [MISSING, 'app_id is required'],
    ],
  },
  {
    field: 'password',
    accepted: ['12345678', 'x'.repeat(256), 'pässwörd', '        '],
    rejected: [
      ['1234567', 'password must be at least 8 characters'],
      ['', 'password must be at least 8 characters'],
      ['x'.repeat(257), 'password must be at most 256 characters'],
      [12345678, 'password must be a string'],
      [null, 'password must be a string'],
      [MISSING, 'password is required'],
    ],
  },
  {
    field: 'email',
    accepted: ['a@b.co', '  Mixed.Case+tag@Example.COM  ', emailOf(189)],
    rejected: [
      ['', 'email must not be empty'],
      ['   ', 'email must not be empty'],
      ['plainaddress', 'email must be a valid email address'],
      ['a@b', 'email must be a valid email address'],
      ['a b@example.com', 'email must be a valid email address'],
      ['a@example..com', 'email must be a valid email address'],
      [emailOf(190), 'email must be at most 254 characters'],
      [null, 'email must be a string'],
      [MISSING, 'email is required'],
    ],
  },
  {
    field: 'username',
    accepted: ['a', 'u'.repeat(64), '  Alice Smith  ', 'zoë_名前'],
    rejected: [
      ['', 'username must not be empty'],
      ['   ', 'username must not be empty'],
      ['u'.repeat(65), 'username must be at most 64 characters'],
      ['tab\there', 'username must not contain control characters, bidi controls, invisible characters or unpaired surrogates'],
      ['ad\u200Bmin', 'username must not contain control characters, bidi controls, invisible characters or unpaired surrogates'],
      ['\u202Enimda', 'username must not contain control characters, bidi controls, invisible characters or unpaired surrogates'],
      [7, 'username must be a string'],
      [MISSING, 'username is required'],
    ],
  },
  ...(['first_name', 'last_name'] as const).map((field) => ({
    field,
    accepted: ['A', 'n'.repeat(100), '  Zoë  ', "O'Brien-Smith"],
    rejected: [
      ['', `${field} must not be empty`],
      ['  ', `${field} must not be empty`],
      ['n'.repeat(101), `${field} must be at most 100 characters`],
      ['line\nbreak', `${field} must be free of control characters`],
      [null, `${field} must be a string`],
      [MISSING, `${field} is required`],
    ] as [unknown, string][],
  })),
  {
    field: 'website_url',
    accepted: ['http://example.com', 'https://example.com/path?q=1#top', 'HTTPS://EXAMPLE.COM', `https://example.com/${'p'.repeat(2028)}`, null, '', MISSING],
    rejected: [
      ['example.com', 'website_url must be a URL starting with http:// or https://'],
      ['www.example.com/page', 'website_url must be a URL starting with http:// or https://'],
      ['ftp://example.com', 'website_url must be a URL starting with http:// or https://'],
      ['http://', 'website_url must be a URL starting with http:// or https://'],
      ['https://exa mple.com', 'website_url must be a URL starting with http:// or https://'],
      ['javascript:alert(1)', 'website_url must be a URL starting with http:// or https://'],
      [`https://example.com/${'p'.repeat(2029)}`, 'website_url must be at most 2048 characters'],
      [42, 'website_url must be a string'],
    ],
  },
  phoneRows('phone_number'),
  {
    field: 'telegram',
    accepted: ['abcde', 't'.repeat(32), 'user_name_1', ' Padded_1 ', null, '', MISSING],
    rejected: [
      ['abcd', 'telegram must be 5 to 32 characters: letters, digits and underscores'],
      ['t'.repeat(33), 'telegram must be 5 to 32 characters: letters, digits and underscores'],
      ['user-name', 'telegram must be 5 to 32 characters: letters, digits and underscores'],
      ['@username', 'telegram must be 5 to 32 characters: letters, digits and underscores'],
      ['имя_юзера', 'telegram must be 5 to 32 characters: letters, digits and underscores'],
      [true, 'telegram must be a string'],
    ],
  },
  {
    field: 'skype',
    accepted: ['abcde', 's'.repeat(32), 'live.ada', 'ada.lovelace,1', 'ada-l_1', ' Padded.1 ', null, '', MISSING],
    rejected: [
      ['abcd', 'skype must be 5 to 32 characters: letters, digits, periods, commas, dashes and underscores'],
      ['s'.repeat(33), 'skype must be 5 to 32 characters: letters, digits, periods, commas, dashes and underscores'],
      ['live:ada', 'skype must be 5 to 32 characters: letters, digits, periods, commas, dashes and underscores'],
      ['ada lovelace', 'skype must be 5 to 32 characters: letters, digits, periods, commas, dashes and underscores'],
      ['@adalove', 'skype must be 5 to 32 characters: letters, digits, periods, commas, dashes and underscores'],
      [42, 'skype must be a string'],
    ],
  },
  {
    field: 'youtube',
    accepted: [
      '@abc',
      `@${'h'.repeat(30)}`,
      '@my.channel-name_1',
      'https://www.youtube.com/@handle',
      'https://youtu.be/dQw4w9WgXcQ',
      'https://m.youtube.com/watch?v=dQw4w9WgXcQ',
      'http://YouTube.com/channel/UC123',
      null,
      '',
      MISSING,
    ],
    rejected: [
      ['handle', 'youtube must be a full YouTube URL or a handle starting with @'],
      ['@ab', 'youtube must be a full YouTube URL or a handle starting with @'],
      [`@${'h'.repeat(31)}`, 'youtube must be a full YouTube URL or a handle starting with @'],
      ['www.youtube.com/@handle', 'youtube must be a full YouTube URL or a handle starting with @'],
      ['https://vimeo.com/123', 'youtube must be a full YouTube URL or a handle starting with @'],
      ['https://youtube.com.example.net/x', 'youtube must be a full YouTube URL or a handle starting with @'],
      ['https://notyoutube.com/x', 'youtube must be a full YouTube URL or a handle starting with @'],
      [['@handle'], 'youtube must be a string'],
    ],
  },
  {
    field: 'facebook',
    accepted: ['abcde', 'f'.repeat(50), 'john.smith.1', null, '', MISSING],
    rejected: [
      ['abcd', 'facebook must be 5 to 50 characters: letters, digits and periods'],
      ['f'.repeat(51), 'facebook must be 5 to 50 characters: letters, digits and periods'],
      ['john_smith', 'facebook must be 5 to 50 characters: letters, digits and periods'],
      ['john smith', 'facebook must be 5 to 50 characters: letters, digits and periods'],
      [{ name: 'john.smith' }, 'facebook must be a string'],
    ],
  },
  phoneRows('whatsapp'),
  {
    field: 'nickname',
    accepted: [MISSING],
    rejected: [['ace', 'nickname is not allowed']],
  },
];

// ---- set_affiliate -------------------------------------------------------

export function attribution(appId: string, profileId = `player-${randomUUID()}`): Record<string, unknown> {
  return { app_id: appId, profile_id: profileId, urm_aff_id: 'aff-1' };
}

const trackingRows = (['urm_aff_id', 'urm_aff_link_id', 'urm_aff'] as const).map((field) => ({
  field,
  accepted: ['x', 'v'.repeat(255), ' spaced value '],
  rejected: [
    ['', `${field} must not be empty`],
    ['v'.repeat(256), `${field} must be at most 255 characters`],
    [null, `${field} must be a string`],
    [42, `${field} must be a string`],
  ] as [unknown, string][],
}));

/** Rows of set_affiliate; the tracking rows apply to a body that has only that parameter. */
export const attributionRules: RuleRow[] = [
  {
    field: 'app_id',
    accepted: [],
    rejected: [
      ['', 'app_id must not be empty'],
      ['a'.repeat(65), 'app_id must be at most 64 characters'],
      [null, 'app_id must be a string'],
      [MISSING, 'app_id is required'],
    ],
  },
  {
    field: 'profile_id',
    accepted: ['p', 'p'.repeat(128)],
    rejected: [
      ['', 'profile_id must not be empty'],
      ['p'.repeat(129), 'profile_id must be at most 128 characters'],
      [7, 'profile_id must be a string'],
      [MISSING, 'profile_id is required'],
    ],
  },
  ...trackingRows,
  {
    field: 'utm_source',
    accepted: [MISSING],
    rejected: [['mail', 'utm_source is not allowed']],
  },
];

/** A body with only `field` of the tracking parameters, for the tracking rows. */
export function attributionWith(appId: string, field: string, value: unknown): Record<string, unknown> {
  const body = attribution(appId);
  if (['urm_aff_id', 'urm_aff_link_id', 'urm_aff'].includes(field)) delete body.urm_aff_id;
  return withField(body, field, value);
}

export const missingTracking = noTrackingParameter;

// ---- in-memory ports -----------------------------------------------------

export class MemoryAffiliateStore implements AffiliateStore {
  readonly affiliates = new Map<string, AffiliateRecord>();
  readonly claims = new Map<string, string>();

  async register(affiliate: AffiliateRecord): Promise<RegistrationOutcome> {
    const claimOf = (field: UniqueAffiliateField) => `${affiliate.app_id}#${field}#${uniquenessKey(affiliate[field])}`;
    const taken = (['email', 'username'] as const).filter((field) => this.claims.has(claimOf(field)));
    if (taken.length > 0) return { registered: false, taken };
    for (const field of ['email', 'username'] as const) this.claims.set(claimOf(field), affiliate.affiliate_id);
    this.affiliates.set(`${affiliate.app_id}#${affiliate.affiliate_id}`, { ...affiliate });
    return { registered: true };
  }

  async list(appId: string) {
    return [...this.affiliates.values()].filter((a) => a.app_id === appId).map(toSummary);
  }

  async get(appId: string, affiliateId: string) {
    const affiliate = this.affiliates.get(`${appId}#${affiliateId}`);
    return affiliate && toSummary(affiliate);
  }

  async page(appId: string, limit: number, start?: string, status?: AffiliateStatus) {
    const all = (await this.list(appId))
      .filter((a) => status === undefined || statusOf(a) === status)
      .sort((a, b) => a.affiliate_id.localeCompare(b.affiliate_id));
    const rest = start === undefined ? all : all.filter((a) => a.affiliate_id > start);
    const affiliates = rest.slice(0, limit);
    return rest.length > limit ? { affiliates, next: affiliates[affiliates.length - 1].affiliate_id } : { affiliates };
  }

  async update(appId: string, affiliateId: string, changes: Partial<Pick<AffiliateRecord, 'status' | 'plan_id'>>) {
    const affiliate = this.affiliates.get(`${appId}#${affiliateId}`);
    if (!affiliate) return undefined;
    Object.assign(affiliate, Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)));
    return toSummary(affiliate);
  }

  async appendDeals(appId: string, affiliateId: string, deals: Deal[], first: boolean) {
    const affiliate = this.affiliates.get(`${appId}#${affiliateId}`);
    const allowed = first ? affiliate?.deals === undefined : affiliate?.deals !== undefined && affiliate.deals.length < maxDeals;
    if (!affiliate || !allowed) throw new Conflict('the affiliate changed meanwhile: read it again');
    affiliate.deals = [...(affiliate.deals ?? []), ...deals.map((deal) => ({ ...deal }))];
    affiliate.plan_id = deals[deals.length - 1].plan_id;
    return toSummary(affiliate);
  }
}

/** Applications in memory, with the DynamoDB adapter's contract: an update sets what is given (undefined leaves a field) and answers the result. */
export class MemoryAppStore implements AppStore {
  /** How often an application was looked up: what a cache in front of the store saves. */
  reads = 0;

  constructor(readonly apps: App[] = []) {}

  async create(app: App) {
    this.apps.push({ ...app });
  }

  async get(appId: string) {
    this.reads++;
    // A copy, as a read from the table is: what a caller holds does not change under it.
    const app = this.apps.find((candidate) => candidate.app_id === appId);
    return app && { ...app };
  }

  async list() {
    return this.apps.map((app) => ({ ...app }));
  }

  async update(appId: string, changes: Parameters<AppStore['update']>[1]) {
    const app = this.apps.find((candidate) => candidate.app_id === appId);
    if (!app) throw new NotFound(`no application ${appId}`);
    Object.assign(app, Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)));
    return { ...app };
  }
}

/** Links in memory, with the DynamoDB adapter's contract: a taken id is a Conflict, an affiliate's links come oldest first. */
export class MemoryLinkStore implements LinkStore {
  readonly links = new Map<string, LinkRecord>();
  reads = 0;

  async create(link: LinkRecord): Promise<void> {
    if (this.links.has(link.link_id)) throw new Conflict(`link id ${link.link_id} is taken`);
    this.links.set(link.link_id, { ...link });
  }

  async get(linkId: string): Promise<LinkRecord | undefined> {
    this.reads++;
    const link = this.links.get(linkId);
    return link && { ...link };
  }

  async listByAffiliate(appId: string, affiliateId: string): Promise<LinkRecord[]> {
    return [...this.links.values()]
      .filter((link) => link.app_id === appId && link.affiliate_id === affiliateId)
      .sort((a, b) => a.created_at.localeCompare(b.created_at));
  }
}

/**
 * Click claims in memory, with the DynamoDB adapter's conditions: a claim is taken when absent or expired, a count
 * grows below its limit, the visitor-cookie key is the first one stored.
 */
export class MemoryClickClaims implements ClickClaims {
  readonly claims = new Map<string, number>();
  readonly counts = new Map<string, number>();
  attempts = 0;
  releases = 0;
  countAttempts = 0;
  uncounts = 0;
  keyReads = 0;
  cookieKey: string | undefined;

  async claim(key: string, now: Date, expiresAt: Date): Promise<boolean> {
    this.attempts++;
    const held = this.claims.get(key);
    if (held !== undefined && held > now.getTime()) return false;
    this.claims.set(key, expiresAt.getTime());
    return true;
  }

  async release(key: string, expiresAt: Date): Promise<void> {
    this.releases++;
    if (this.claims.get(key) === expiresAt.getTime()) this.claims.delete(key);
  }

  async countWithin(key: string, limit: number): Promise<boolean> {
    this.countAttempts++;
    const counted = this.counts.get(key) ?? 0;
    if (counted >= limit) return false;
    this.counts.set(key, counted + 1);
    return true;
  }

  async uncount(key: string): Promise<void> {
    this.uncounts++;
    const counted = this.counts.get(key) ?? 0;
    if (counted > 0) this.counts.set(key, counted - 1);
  }

  async visitorCookieKey(candidate: string): Promise<string> {
    this.keyReads++;
    this.cookieKey ??= candidate;
    return this.cookieKey;
  }
}
export class MemoryPlanStore implements PlanStore {
  /** Current versions, as the `plan#` items. */
  readonly plans: Plan[] = [];
  /** Every version written, as the `planv#` items (plans stored before versions have none until edited). */
  readonly versionItems: Plan[] = [];

  /** A plan stored before versions: no version, no version item. */
  legacy(plan: Plan) {
    this.plans.push({ ...plan });
  }

  async create(plan: Plan) {
    this.plans.push({ ...plan, version: versionOf(plan) });
    this.versionItems.push({ ...plan, version: versionOf(plan) });
  }

  async get(appId: string, planId: string) {
    return this.plans.find((plan) => plan.app_id === appId && plan.plan_id === planId);
  }

  async getVersion(appId: string, planId: string, version: number) {
    const found = this.versionItems.find((plan) => plan.app_id === appId && plan.plan_id === planId && plan.version === version);
    if (found || version !== 1) return found && { ...found };
    const current = await this.get(appId, planId);
    return current && current.version === undefined ? { ...current } : undefined;
  }

  async versions(appId: string, planId: string) {
    const versions = this.versionItems.filter((plan) => plan.app_id === appId && plan.plan_id === planId).sort((a, b) => versionOf(a) - versionOf(b));
    if (versions.length > 0) return versions;
    const legacy = await this.getVersion(appId, planId, 1);
    return legacy ? [legacy] : [];
  }

  async saveVersion(next: Plan, previous: Plan) {
    const index = this.plans.findIndex((plan) => plan.app_id === next.app_id && plan.plan_id === next.plan_id);
    const current = this.plans[index];
    if (!current || current.version !== previous.version || current.archived_at !== undefined) throw new Conflict('the plan changed meanwhile: read it again');
    if (previous.version === undefined) this.versionItems.push({ ...previous, version: 1 });
    this.versionItems.push({ ...next });
    this.plans[index] = { ...next };
  }

  async archive(appId: string, planId: string, at: string) {
    const plan = await this.get(appId, planId);
    if (!plan || plan.archived_at !== undefined) return undefined;
    plan.archived_at = at;
    return { ...plan };
  }

  async list(appId: string) {
    return this.plans.filter((plan) => plan.app_id === appId);
  }
}

/** The statements lane's lock, as a test sets it: the last closed month of each affiliate. */
export class MemoryStatementLock implements StatementLock {
  readonly closed = new Map<string, string>();

  async lastClosedMonth(appId: string, affiliateId: string) {
    return this.closed.get(`${appId}#${affiliateId}`);
  }
}

/** The funnel as the consumer would leave it, read like the table: by application, affiliate and inclusive day range. */
export class MemoryFunnel implements FunnelReader {
  readonly dayRows: FunnelDayRow[] = [];
  readonly ftdRows: FtdRow[] = [];
  readonly registrationRows: RegistrationRow[] = [];
  /** Every range asked for, to show what a use case reads. */
  readonly reads: { rows: string; from: string; to: string }[] = [];

  private select<T extends { app_id: string; affiliate_id: string; day: string }>(
    rows: T[],
    name: string,
    appId: string,
    affiliateId: string,
    from: string,
    to: string,
  ) {
    this.reads.push({ rows: name, from, to });
    return rows.filter((row) => row.app_id === appId && row.affiliate_id === affiliateId && row.day >= from && row.day <= to);
  }

  async days(appId: string, affiliateId: string, from: string, to: string) {
    return this.select(this.dayRows, 'days', appId, affiliateId, from, to);
  }

  async ftds(appId: string, affiliateId: string, from: string, to: string) {
    return this.select(this.ftdRows, 'ftds', appId, affiliateId, from, to);
  }

  async registrations(appId: string, affiliateId: string, from: string, to: string) {
    return this.select(this.registrationRows, 'registrations', appId, affiliateId, from, to);
  }

  readonly subIdRows: SubIdDayRow[] = [];

  async subIdDays(appId: string, affiliateId: string, from: string, to: string) {
    return this.select(this.subIdRows, 'sub_ids', appId, affiliateId, from, to);
  }
}

/** A funnel day row of `affiliateId` with zeros but what is given. */
export function dayRow(affiliateId: string, day: string, figures: Partial<FunnelDayRow> = {}, appId = 'app_1'): FunnelDayRow {
  return {
    app_id: appId,
    affiliate_id: affiliateId,
    link_id: '-',
    day,
    clicks: 0,
    registrations: 0,
    ftds: 0,
    deposit_count: 0,
    deposits: '0',
    withdrawals: '0',
    bets: '0',
    wins: '0',
    bonuses: '0',
    ...figures,
  };
}

/** A first deposit of `profileId` under `affiliateId`. */
export function ftdRow(affiliateId: string, day: string, amount: string, profileId = `player-${day}-${amount}`, appId = 'app_1', linkId = '-'): FtdRow {
  return {
    app_id: appId,
    affiliate_id: affiliateId,
    profile_id: profileId,
    link_id: linkId,
    day,
    amount,
    insert_id: `deposit-${profileId}`,
    urm_date_time: `${day}T12:00:00Z`,
  };
}
