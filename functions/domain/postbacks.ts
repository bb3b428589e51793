/**
 * Affiliate postbacks: a URL template an affiliate sets, which urm calls
 * server to server (GET) when one of its players registers, makes a first
 * deposit, earns the affiliate a CPA, or deposits. Pure rules here: the
 * template, which addresses may be called (the URL is untrusted input: never
 * private space), the signature, the retry schedule, the outbox rows and
 * marks in the funnel table, and the masking of the URL the log keeps.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';

import DecimalJs from 'decimal.js';
import type { FtdRow, Plan } from './affiliate-program';
import { qualifies } from './commission';

export const postbackEvents = ['registration', 'ftd', 'cpa', 'deposit'] as const;
export type PostbackEvent = (typeof postbackEvents)[number];
/** What an affiliate that never chose receives: what every affiliate received before the choice existed. */
export const defaultPostbackEvents: readonly PostbackEvent[] = ['registration', 'ftd'];

/** The events an affiliate receives, as stored on its item (absent: the default), in the canonical order. */
export function postbackEventsOf(stored: readonly string[] | undefined): PostbackEvent[] {
  const chosen = stored ?? defaultPostbackEvents;
  return postbackEvents.filter((event) => chosen.includes(event));
}

/** Why a choice of events may not be stored, or [] when it may (any subset, none included: the URL stays, nothing is sent). */
export function postbackEventProblems(events: readonly unknown[]): string[] {
  if (events.length > postbackEvents.length * 2) return [`events must list at most ${postbackEvents.length} events`];
  return events
    .filter((event) => !(postbackEvents as readonly unknown[]).includes(event))
    .map((event) => `events has an unknown event ${JSON.stringify(String(event).slice(0, 40))} (one of ${postbackEvents.join(', ')})`);
}

export const postbackPlaceholders = ['event', 'sub_id', 'link_id', 'affiliate_id', 'amount', 'currency', 'payout', 'event_id', 'date'] as const;
export type PostbackPlaceholder = (typeof postbackPlaceholders)[number];
export type PostbackValues = Record<PostbackPlaceholder, string>;

export const postbackLimits = {
  urlLength: 1000,
  /** Per attempt: connect, send and the status line. */
  timeoutMs: 5000,
  /** The most of a response body read (and then dropped). */
  responseBytes: 4096,
  maxAttempts: 10,
  firstRetryMs: 60_000,
  maxRetryMs: 60 * 60_000,
  /** Delivery log rows are kept this long. */
  logDays: 90,
} as const;

/** The secret name of an affiliate's signing secret in the SecretStore. */
/** Every postback secret's name matches this (`*`: any run of characters but `/`): what the portal may write. */
export const postbackSecretPattern = 'apps/*/affiliates/*/postback-secret';

export function postbackSecretName(appId: string, affiliateId: string): string {
  return `apps/${appId}/affiliates/${affiliateId}/postback-secret`;
}

/** A new signing secret: 256 random bits, prefixed so that secret scanners know it. */
export function newPostbackSecret(): string {
  return `urm_postback_${randomBytes(32).toString('base64url')}`;
}

/** The operator's allow-list of development hosts (comma or space separated host names or IPs); lower-case. */
export function postbackHostList(configured: string | undefined): string[] {
  return (configured ?? '')
    .split(/[\s,]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
}

const PLACEHOLDER = /\{([^{}]*)\}/g;

/** The template with every placeholder replaced by its URL-encoded value. */
export function expandPostbackUrl(template: string, values: PostbackValues): string {
  return template.replace(PLACEHOLDER, (_, name: string) => encodeURIComponent(values[name as PostbackPlaceholder] ?? ''));
}

/** The host part of a URL as WHATWG parses it (IPv4 shorthand such as 2130706433 or 0x7f.1 becomes dotted; IPv6 loses its brackets). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

/** The parts of a URL that decide where, and as whom, urm connects: no placeholder may stand in them. */
const fixedParts: readonly (readonly [string, (url: URL) => string])[] = [
  ['scheme', (url) => url.protocol],
  ['user name or password', (url) => `${url.username}:${url.password}`],
  ['host', (url) => url.hostname],
  ['port', (url) => url.port],
];

function parsed(text: string): URL | undefined {
  return URL.canParse(text) ? new URL(text) : undefined;
}

/**
 * The template parsed as WHATWG parses it, each placeholder replaced by a
 * distinct sentinel of letters, and the fixed parts a sentinel landed in
 * (`https:{sub_id}.x/pb` has no `//`, yet its placeholder is the host). A
 * port holds only digits, so a placeholder there is found by parsing with two
 * different digits. Undefined when the template is not a URL.
 */
function placeholderPlacement(template: string): { url?: URL; misplaced: string[] } {
  let stem = 'urmslot';
  while (template.toLowerCase().includes(stem)) stem += 'x';
  let count = 0;
  const url = parsed(template.replace(PLACEHOLDER, () => `${stem}${count++}z`));
  if (url) return { url, misplaced: fixedParts.filter(([, part]) => part(url).toLowerCase().includes(stem)).map(([name]) => name) };
  const [one, two] = ['1', '2'].map((digit) => parsed(template.replace(PLACEHOLDER, digit)));
  return { misplaced: one && two && one.port !== two.port ? ['port'] : [] };
}

const misplacedProblem = (part: string) => `url must not have a placeholder in its ${part}`;

/**
 * The refusals for placeholders standing where they would choose where, or as
 * whom, urm connects; [] when none does. The sender checks a stored template
 * with this too: one saved before a rule was added is never expanded.
 */
export function misplacedPlaceholderProblems(template: string): string[] {
  return placeholderPlacement(template).misplaced.map(misplacedProblem);
}

/**
 * Why a template may not be a postback URL, or [] when it may. https on port
 * 443 to a host name or a public IP address; a host on the operator's
 * development allow-list may also be plain http on any port. No placeholder
 * in the scheme, user name, password, host or port.
 */
export function postbackUrlProblems(template: string, allowedHosts: readonly string[]): string[] {
  const problems: string[] = [];
  if (template.length > postbackLimits.urlLength) problems.push(`url must be at most ${postbackLimits.urlLength} characters`);
  for (const [, name] of template.matchAll(PLACEHOLDER)) {
    if (!(postbackPlaceholders as readonly string[]).includes(name)) problems.push(`url has an unknown placeholder {${name}}`);
  }
  if (/[\u0000-\u0020\u007f]/.test(template)) problems.push('url must not contain spaces or control characters');
  if (problems.length > 0) return problems;
  // The host is fixed when the URL is set: a sub-id comes from whoever clicks, and must never choose where urm connects.
  const { url, misplaced } = placeholderPlacement(template);
  if (misplaced.length > 0) return misplaced.map(misplacedProblem);
  if (url === undefined) return ['url is not a URL'];
  if (url.username || url.password) problems.push('url must not carry a user name or password');
  const host = hostOf(url);
  if (allowedHosts.includes(host)) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') problems.push('url must be https');
    return problems;
  }
  if (url.protocol !== 'https:') problems.push('url must be https');
  else if (url.port !== '') problems.push('url must use the https port 443');
  if (isIP(host) !== 0 && !isPublicAddress(host)) problems.push(`url must not point at a private or reserved address (${host})`);
  else if (isIP(host) === 0 && (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.'))) {
    problems.push(`url must name a public host (${host})`);
  }
  return problems;
}

// IPv4 ranges never called: this network, private, CGNAT, loopback, link-local (the metadata address), IETF, TEST-NETs, benchmarking, multicast, reserved, broadcast.
const v4Blocked: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

function v4Number(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function v4Public(address: string): boolean {
  const n = v4Number(address);
  return !v4Blocked.some(([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(v4Number(base) / 2 ** (32 - bits)));
}

/** The eight 16-bit groups of an IPv6 address (with a dotted IPv4 tail, if any, folded in). */
function v6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4Number(dotted[1]);
    text = `${text.slice(0, dotted.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const middle = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16));
}

const v4Of = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

function v6Public(address: string): boolean {
  const g = v6Groups(address);
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  // ::ffff:a.b.c.d (IPv4-mapped), ::a.b.c.d (IPv4-compatible), 64:ff9b::a.b.c.d (NAT64): the IPv4 address decides.
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return !(g[5] === 0 && g[6] === 0) && v4Public(v4Of(g[6], g[7]));
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4Public(v4Of(g[6], g[7]));
  if (g[0] === 0x2002) return v4Public(v4Of(g[1], g[2])); // 6to4
  if ((g[0] & 0xfe00) === 0xfc00) return false; // fc00::/7 unique local
  if ((g[0] & 0xffc0) === 0xfe80 || (g[0] & 0xffc0) === 0xfec0) return false; // link-local, site-local
  if ((g[0] & 0xff00) === 0xff00) return false; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return false; // documentation
  if (g[0] === 0x2001 && g[1] < 0x200) return false; // Teredo, benchmarking, ORCHID and other IETF space
  if (g[0] === 0x100 && zeros(1, 4)) return false; // discard-only
  return (g[0] & 0xe000) === 0x2000; // only global unicast 2000::/3 is public
}

/** Whether an IP address (v4 or v6, as DNS answers or WHATWG writes it) is public unicast: never loopback, private, link-local, CGNAT, multicast or reserved. */
export function isPublicAddress(address: string): boolean {
  const version = isIP(address.replace(/%.*$/, ''));
  if (version === 4) return v4Public(address);
  if (version === 6) return v6Public(address);
  return false;
}

/** `sha256=<hex HMAC-SHA256(secret, timestamp + "." + url)>`: the X-Urm-Signature header. */
export function postbackSignature(secret: string, timestamp: string, url: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${url}`).digest('hex')}`;
}

/** How long after failed attempt `attempts` (1-based) the next one is: 1 min, 2, 4, … capped at 1 h; undefined when the attempts are spent. */
export function retryDelayMs(attempts: number): number | undefined {
  if (attempts >= postbackLimits.maxAttempts) return undefined;
  return Math.min(postbackLimits.maxRetryMs, postbackLimits.firstRetryMs * 2 ** (attempts - 1));
}

/** The id of the delivery of one trace row: the same for every attempt and every redelivery of the row. */
export function postbackEventId(pk: string, sk: string): string {
  const hex = createHash('sha256').update(`postback\u0000${pk}\u0000${sk}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The outbox: attributes a row carries while its postback is due.
 * `postbacks-due` (resources.ts) is a sparse index on them, so only these
 * rare rows cost an index write.
 */
export const postbackQueue = 'due';
export function postbackDueMark(now: Date): { postback_queue: string; postback_due: string } {
  return { postback_queue: postbackQueue, postback_due: now.toISOString() };
}

/**
 * Sort keys of the outbox rows under the affiliate's partition: registration
 * and FTD rows are the funnel's trace rows (`r#`, `f#`); a CPA and each
 * deposit get a row of their own, written only for an affiliate that receives
 * that event. The keys make one postback per (event, player, deposit insert
 * id): the event id is their hash.
 */
export const cpaPostbackSk = (day: string, profileId: string) => `pc#${day}#${profileId}`;
export const depositPostbackSk = (day: string, profileId: string, insertId: string) => `pd#${day}#${profileId}#${insertId}`;

/** A deposit of an attributed player, under its affiliate: the same fields as an FTD row (the first deposit is one of them). */
export type DepositRow = FtdRow;

/** A CPA or deposit outbox row as written: due now, expiring (the table's TTL) long after its last retry. */
export type PostbackRow = DepositRow & { pk: string; sk: string; postback_queue: string; postback_due: string; expires_at: number };

export function postbackRowOf(event: 'cpa' | 'deposit', pk: string, row: DepositRow, now: Date): PostbackRow {
  const sk = event === 'cpa' ? cpaPostbackSk(row.day, row.profile_id) : depositPostbackSk(row.day, row.profile_id, row.insert_id);
  const expiresAt = Math.floor(now.getTime() / 1000) + postbackLimits.logDays * 24 * 60 * 60;
  return { pk, sk, ...row, ...postbackDueMark(now), expires_at: expiresAt };
}

/** A row whose postback is due, as the sender reads it from the index. */
export interface DuePostback {
  pk: string;
  sk: string;
  app_id: string;
  affiliate_id: string;
  profile_id: string;
  link_id: string;
  sub_id?: string;
  day: string;
  urm_date_time: string;
  /** FTD, CPA and deposit rows only, in the main currency. */
  amount?: string;
  postback_due: string;
  postback_attempts?: number;
}

const eventBySkPrefix: Record<string, PostbackEvent> = { r: 'registration', f: 'ftd', pc: 'cpa', pd: 'deposit' };

export const postbackEventOf = (row: Pick<DuePostback, 'sk'>): PostbackEvent => eventBySkPrefix[row.sk.slice(0, row.sk.indexOf('#'))] ?? 'registration';

/** A CPA's payout: the CPA amount of the plan in force on the FTD's day, 2 decimals; undefined when that FTD earned none. */
export function cpaPayout(plan: Pick<Plan, 'cpa'> | undefined, ftd: Pick<FtdRow, 'amount'>): string | undefined {
  if (!plan?.cpa || !qualifies(plan, ftd)) return undefined;
  return new DecimalJs(plan.cpa.amount).toFixed(2);
}

/** The values a due row gives the template: never the player's profile id or anything personal. `payout`: a CPA's, else empty. */
export function postbackValues(row: DuePostback, currency: string, payout = ''): PostbackValues {
  const event = postbackEventOf(row);
  const money = event !== 'registration';
  return {
    event,
    sub_id: row.sub_id ?? '',
    link_id: row.link_id === '-' ? '' : row.link_id,
    affiliate_id: row.affiliate_id,
    amount: money ? (row.amount ?? '') : '',
    currency: money ? currency : '',
    payout: event === 'cpa' ? payout : '',
    event_id: postbackEventId(row.pk, row.sk),
    date: row.urm_date_time,
  };
}

/**
 * A query parameter whose name holds one of these (case-insensitive) is a
 * secret: `token`, `api_key`, `apiKey`, `secret`, `password`, `passwd`, `pwd`,
 * `sig`, `signature`, `auth`, `authorization`, `session`, `credential`.
 * Broad on purpose: masking a harmless value costs nothing.
 */
const secretParameter = /token|key|secret|pass|pwd|sig|auth|session|credential/i;
export const maskedValue = '***';

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/**
 * The URL as the delivery log keeps it: any user name and password, and the
 * non-empty values of query parameters whose names look secret, replaced by
 * `***`; the rest exactly as called. Secrets elsewhere (a path segment) are
 * not recognised: the docs tell affiliates to put them in a query parameter.
 */
export function maskPostbackUrl(url: string): string {
  const hashAt = url.indexOf('#');
  const [beforeHash, fragment] = hashAt === -1 ? [url, ''] : [url.slice(0, hashAt), url.slice(hashAt)];
  const queryAt = beforeHash.indexOf('?');
  const [base, query] = queryAt === -1 ? [beforeHash, undefined] : [beforeHash.slice(0, queryAt), beforeHash.slice(queryAt + 1)];
  const withoutUser = base.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/?#]*@/i, `$1${maskedValue}@`);
  if (query === undefined) return `${withoutUser}${fragment}`;
  const masked = query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1 || equals === pair.length - 1) return pair;
      const name = pair.slice(0, equals);
      return secretParameter.test(decodedName(name)) ? `${name}=${maskedValue}` : pair;
    })
    .join('&');
  return `${withoutUser}?${masked}${fragment}`;
}

/** One attempt in an affiliate's delivery log (funnel table, `a#<app>#<affiliate>`, `pb#<at>#<event_id>`). */
export interface PostbackLogEntry {
  event_id: string;
  event: PostbackEvent;
  at: string;
  attempts: number;
  /** delivered (2xx), retrying (failed, another attempt is scheduled), failed (the last attempt failed). */
  outcome: 'delivered' | 'retrying' | 'failed';
  /** The URL called, masked (maskPostbackUrl): never a secret. Absent when none was called (no secret, a template refused) or on entries older than it. */
  url?: string;
  status_code?: number;
  error?: string;
}

export const postbackLogSk = (at: string, eventId: string) => `pb#${at}#${eventId}`;

/** An affiliate's postback URL template and the events it receives, on its affiliate item. */
export interface PostbackSettingsStore {
  /** The template, or undefined when none is set; the events as stored (absent: never chosen); `exists` is false for an unknown affiliate. */
  get(appId: string, affiliateId: string): Promise<{ exists: boolean; postback_url?: string; postback_events?: string[] }>;
  /** Sets (a string) or clears (undefined) the template of an existing affiliate; false for an unknown one. */
  set(appId: string, affiliateId: string, postbackUrl: string | undefined): Promise<boolean>;
  /** Stores the events an existing affiliate receives; false for an unknown one. */
  setEvents(appId: string, affiliateId: string, events: PostbackEvent[]): Promise<boolean>;
}

/** The events an affiliate receives now: none without a URL (nothing would be sent). */
export function receivedEvents(settings: { postback_url?: string; postback_events?: string[] }): PostbackEvent[] {
  return settings.postback_url === undefined ? [] : postbackEventsOf(settings.postback_events);
}

/** The outbox of due postbacks (the `postbacks-due` index of the funnel table). */
export interface PostbackOutbox {
  /** Up to `limit` rows due at or before `now`, oldest first. */
  due(now: Date, limit: number): Promise<DuePostback[]>;
  /**
   * Takes the row for one attempt if it is still due at `seenDue` (another
   * sender has not taken it): moves its due time to `leaseUntil` (so a sender
   * that dies mid-attempt leaves it to be tried again) and counts the
   * attempt. The attempt's number, or undefined when another took it.
   */
  claim(row: Pick<DuePostback, 'pk' | 'sk'>, seenDue: string, leaseUntil: string): Promise<number | undefined>;
  /** No longer due (delivered, given up, or nowhere to send), unless the row was marked again since `claimedDue`. */
  done(row: Pick<DuePostback, 'pk' | 'sk'>, claimedDue: string): Promise<void>;
  /** Due again at `at`. */
  reschedule(row: Pick<DuePostback, 'pk' | 'sk'>, claimedDue: string, at: string): Promise<void>;
}

/** An affiliate's delivery log: one entry per attempt, kept 90 days. */
export interface PostbackLog {
  append(appId: string, affiliateId: string, entry: PostbackLogEntry): Promise<void>;
  /** Newest first. */
  recent(appId: string, affiliateId: string, limit: number): Promise<PostbackLogEntry[]>;
}

/**
 * What one call did: the status code, or why there was none (refused address, timeout, connection error);
 * `unsent` when the request surely never left (refused, not resolved, no connection made).
 */
export type PostbackResponse = { status: number } | { error: string; unsent?: true };

/** Sends one signed GET (functions/adapters/postback-http.ts). */
export interface PostbackTransport {
  get(url: string, headers: Record<string, string>): Promise<PostbackResponse>;
}
