/**
 * The affiliate funnel, as pure functions: what a player's records (money
 * events, the attribution event) and clicks add to the day rows of the
 * affiliate they count for, and the player's ledger that remembers what has
 * been counted.
 *
 * Exactly once without a transaction: every contribution carries the shard
 * and sequence number of the record behind it. A day row keeps, per shard,
 * the last sequence number whose contributions it includes, and takes only
 * later ones; a player's ledger keeps the profile-style bookkeeping (applied
 * per shard, recent insert ids) and is written after the day rows. A crash
 * between the two makes the redelivery compute the same contributions from
 * the same ledger, which the day rows then skip.
 *
 * Sub-id rows (`s#<day>#<link_id>#<sub_id>`) keep the same figures per sub-id
 * with the same per-shard bookkeeping, and are written after their link's day
 * row. Which sub-ids get a row is decided on the day row, in the write that
 * applies the contribution: its `sub_ids` list only grows, and stops at the
 * bound, so once the day row includes a contribution, the list says for good
 * whether its sub-id has a row or counts under `(other)`; a redelivery after a
 * crash between the two writes picks the same row, which then skips it.
 */
import { MESSAGE_SUPPRESSED_EVENT, suppressionReasons } from './send-gate';
import DecimalJs from 'decimal.js';
import type { StreamItem } from '../stream/kinesis-batch';
import { noLink, type FtdRow, type FunnelDayRow, type MoneyKind, type RegistrationRow } from './affiliate-program';
import { affiliateAttributedEvent, isCurrency, type MoneySettings } from './money-settings';
import { compareSequence, pruneRecent, remember, whetherSeen } from './profile-state';
import { SUB_ID_PATTERN } from './tracking-links';

/** Exact: amounts times exchange rates never round at any size an operator sends. */
const Decimal = DecimalJs.clone({ precision: 200, toExpNeg: -300, toExpPos: 300 });
const plus = (a: string, b: string) => new Decimal(a).plus(b).toFixed();

/** Money figures of a day, in the main currency. */
export interface MoneySums {
  deposit_count: number;
  deposits: string;
  withdrawals: string;
  bets: string;
  wins: string;
  bonuses: string;
}

/** What a day row counts (FunnelDayRow without its keys); an application's row also counts messages the send gate held back, by reason. */
export type DayFigures = MoneySums & { clicks: number; registrations: number; ftds: number; suppressed?: Record<string, number> };

const countFields = ['clicks', 'registrations', 'ftds', 'deposit_count'] as const;
const moneyFields = ['deposits', 'withdrawals', 'bets', 'wins', 'bonuses'] as const;

const sumOfKind: Record<MoneyKind, (typeof moneyFields)[number]> = {
  deposit: 'deposits',
  withdrawal: 'withdrawals',
  bet: 'bets',
  win: 'wins',
  bonus: 'bonuses',
};

export const zeroFigures = (): DayFigures => ({
  clicks: 0,
  registrations: 0,
  ftds: 0,
  deposit_count: 0,
  deposits: '0',
  withdrawals: '0',
  bets: '0',
  wins: '0',
  bonuses: '0',
});

/** Adds `delta` into `into` (exact decimals). */
export function addFigures<T extends Partial<DayFigures>>(into: T, delta: Partial<DayFigures>): T {
  const target = into as Partial<DayFigures>;
  for (const field of countFields) if (delta[field] !== undefined) target[field] = (target[field] ?? 0) + delta[field];
  for (const field of moneyFields) if (delta[field] !== undefined) target[field] = plus(target[field] ?? '0', delta[field]);
  if (delta.suppressed) {
    const counts = { ...target.suppressed };
    for (const [reason, n] of Object.entries(delta.suppressed)) counts[reason] = (counts[reason] ?? 0) + n;
    target.suppressed = counts;
  }
  return into;
}

/**
 * The UTC day of a record's `urm_date_time`; undefined when JavaScript cannot
 * read it (a leap second, 23:59:60, passes RFC 3339 validation): such a record
 * is rejected, never allowed to fail its batch forever.
 */
export function dayOf(dateTime: unknown): string | undefined {
  const time = typeof dateTime === 'string' ? Date.parse(dateTime) : NaN;
  return Number.isNaN(time) ? undefined : new Date(time).toISOString().slice(0, 10);
}
const unreadableTime = 'urm_date_time cannot be read as a point in time (a leap second?), so the record has no day to count on';

export const affiliatePk = (appId: string, affiliateId: string) => `a#${appId}#${affiliateId}`;
export const dayRowSk = (day: string, linkId: string) => `d#${day}#${linkId}`;
export const registrationSk = (day: string, profileId: string) => `r#${day}#${profileId}`;
export const ftdSk = (day: string, profileId: string) => `f#${day}#${profileId}`;
export const ledgerPk = (appId: string, profileId: string) => `p#${appId}#${profileId}`;
export const ledgerSk = 'ledger';
export const subIdRowSk = (day: string, linkId: string, subId: string) => `s#${day}#${linkId}#${subId}`;
/** The application-wide day rows: every player's money and FTDs, attributed or not (functions/domain/figures.ts). */
export const appPk = (appId: string) => `app#${appId}`;
export const appDaySk = (day: string) => `d#${day}`;

/** What one record adds to one affiliate, link and day; or, without an affiliate, to the application's day. */
export interface Contribution {
  app_id: string;
  affiliate_id?: string;
  link_id?: string;
  /** The attribution's or click's sub-id, as given: sub-id rows keep it (`subIdRowOf`). */
  sub_id?: string;
  day: string;
  shard: string;
  seq: string;
  figures: Partial<DayFigures>;
}

/**
 * At most this many sub-ids get their own row per link and UTC day; the rest
 * count under `(other)`. A sub-id is whatever the clicker typed, so without a
 * bound one link could be made to hold a row per request.
 */
export const subIdsPerLinkDay = 100;
/** The row of a link's day that counts the sub-ids past the bound, and those no tracking link could carry. */
export const otherSubId = '(other)';
/** In reports: what a link's day counted without a sub-id (its day row less its sub-id rows). */
export const noSubId = '(none)';

/** Whether a sub-id may have its own row: the click address's rule, so a row's key never holds `#` or anything else to escape. */
const mayHaveRow = (subId: string) => SUB_ID_PATTERN.test(subId);

/** The sub-id row a contribution counts in, given its link's day row as written (`sub_ids` decided). */
export function subIdBucket(subId: string, admitted: readonly string[] | undefined): string {
  return admitted?.includes(subId) ? subId : otherSubId;
}

/** A day row as stored: the figures and the exactly-once bookkeeping; an application's row has no affiliate or link. */
export interface StoredDayRow extends Omit<FunnelDayRow, 'affiliate_id' | 'link_id'>, Partial<Pick<FunnelDayRow, 'affiliate_id' | 'link_id'>> {
  pk: string;
  sk: string;
  /** Per shard, the last sequence number whose contributions the row includes. */
  applied: Record<string, string>;
  version: number;
  /** A link's day row: the sub-ids given their own row that day, in the order admitted (at most subIdsPerLinkDay). */
  sub_ids?: string[];
  /** A sub-id row: its sub-id, or `(other)`. */
  sub_id?: string;
}

export interface Attribution {
  affiliate_id: string;
  link_id: string;
  sub_id?: string;
  day: string;
  urm_date_time: string;
  insert_id: string;
}

export interface FirstDeposit {
  day: string;
  /** In the main currency. */
  amount: string;
  insert_id: string;
  urm_date_time: string;
}

/** A deposit as the ledger remembers it (the player's latest). */
export interface LastDeposit {
  day: string;
  /** In the main currency. */
  amount: string;
  urm_date_time: string;
}

/** A player's ledger as stored (`p#<app_id>#<profile_id>`, `ledger`). */
export interface StoredLedger {
  pk: string;
  sk: string;
  app_id: string;
  profile_id: string;
  /** The first attribution with an affiliate: every figure of the player counts for it. */
  attribution?: Attribution;
  /** The player's first deposit ever (the FTD, once attributed). */
  first_deposit?: FirstDeposit;
  /** Money seen before the attribution, by day: added to the affiliate's days when it arrives. */
  unattributed: Record<string, MoneySums>;
  /** Every money event the player ever made, by kind, in the main currency; missing on ledgers written before it was kept: zero. */
  lifetime?: MoneySums;
  /** The deposit with the latest urm_date_time (of equal ones, the last counted); missing: none yet. */
  last_deposit?: LastDeposit;
  applied: Record<string, string>;
  recent: Record<string, string>;
  version: number;
  updated_at: string;
}

export interface PlayerOutcome {
  /** The ledger to write (version already incremented), or undefined when no record was new. */
  ledger?: StoredLedger;
  contributions: Contribution[];
  registrations: RegistrationRow[];
  ftds: FtdRow[];
  /**
   * Deposits counted for an affiliate (for its `deposit` postbacks): each one made while the player is attributed, and
   * the first deposit when an attribution releases it. Earlier deposits are sums on the ledger, no longer events.
   */
  deposits: FtdRow[];
  /** Money events counted nowhere, and why. */
  rejections: { item: StreamItem; reason: string }[];
}

/** Whether the funnel has anything to do with an event of this name (else it costs nothing). */
export function countsEvent(settings: Pick<MoneySettings, 'money_events'>, record: Record<string, unknown>): boolean {
  const name = record.event;
  if (typeof name !== 'string') return false;
  if (name === affiliateAttributedEvent) return typeof record.urm_aff_id === 'string' && record.urm_aff_id.length > 0;
  if (name === MESSAGE_SUPPRESSED_EVENT) return suppressedReason(record) !== undefined;
  return Object.hasOwn(settings.money_events, name);
}

/** A known reason only: the day row's counts stay bounded whatever an event says. */
const suppressedReason = (record: Record<string, unknown>): string | undefined =>
  typeof record.reason === 'string' && (suppressionReasons as readonly string[]).includes(record.reason) ? record.reason : undefined;

const positive = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0;

/** A money event's amount as sent and in the main currency (exact decimal strings), or why it counts nowhere. */
export interface EventMoney {
  /** As sent, in `currency`. */
  amount: string;
  currency: string;
  /** In the main currency. */
  main: string;
}

/** A money event's amount in the main currency (exact), or why it counts nowhere. */
export function mainAmount(record: Record<string, unknown>, mainCurrency: string): { amount: string } | { reason: string } {
  const money = eventMoney(record, mainCurrency);
  return 'reason' in money ? money : { amount: money.main };
}

/** A money event's amount as sent and in the main currency, read once for the funnel and for the console's timeline. */
export function eventMoney(record: Record<string, unknown>, mainCurrency: string): EventMoney | { reason: string } {
  const problems: string[] = [];
  if (!positive(record.amount)) problems.push('amount must be a number greater than 0');
  if (!isCurrency(record.currency)) problems.push('currency must be three upper-case letters (ISO 4217)');
  else if (record.currency !== mainCurrency && !positive(record.exchange_rate)) {
    problems.push(`exchange_rate must be a number greater than 0 (${record.currency} to the main currency ${mainCurrency})`);
  }
  if (problems.length > 0) return { reason: `money event ${JSON.stringify(record.event)}: ${problems.join('; ')}` };
  // String(number) is the shortest text that reads back as the number: 0.1 stays 0.1, not 0.1000000000000000055….
  const amount = new Decimal(String(record.amount));
  return {
    amount: amount.toFixed(),
    currency: record.currency as string,
    main: (record.currency === mainCurrency ? amount : amount.times(String(record.exchange_rate))).toFixed(),
  };
}

export function emptyLedger(appId: string, profileId: string): StoredLedger {
  return {
    pk: ledgerPk(appId, profileId),
    sk: ledgerSk,
    app_id: appId,
    profile_id: profileId,
    unattributed: {},
    applied: {},
    recent: {},
    version: 0,
    updated_at: '',
  };
}

/**
 * Counts a player's records of a batch (stream order) against the player's
 * ledger: records already counted (redelivered, or re-sent with the same
 * insert id) add nothing; the first attribution wins; money before it waits
 * on the ledger; the first deposit is the FTD, counted once, for the
 * affiliate the player is or later gets attributed to, on the deposit's day.
 */
export function countPlayer(input: {
  stored: StoredLedger | undefined;
  appId: string;
  profileId: string;
  items: StreamItem[];
  settings: MoneySettings;
  now: Date;
}): PlayerOutcome {
  const { appId, profileId, settings } = input;
  const ledger: StoredLedger = structuredClone(input.stored ?? emptyLedger(appId, profileId));
  const outcome: PlayerOutcome = { contributions: [], registrations: [], ftds: [], deposits: [], rejections: [] };
  let changed = false;
  const contribute = (item: StreamItem, attribution: Attribution, day: string, figures: Partial<DayFigures>) =>
    outcome.contributions.push({
      app_id: appId,
      affiliate_id: attribution.affiliate_id,
      link_id: attribution.link_id,
      ...(attribution.sub_id === undefined ? {} : { sub_id: attribution.sub_id }),
      day,
      shard: item.shardId,
      seq: item.sequenceNumber,
      figures,
    });
  const depositRow = (attribution: Attribution, deposit: FirstDeposit): FtdRow => ({
    app_id: appId,
    affiliate_id: attribution.affiliate_id,
    profile_id: profileId,
    link_id: attribution.link_id,
    ...(attribution.sub_id === undefined ? {} : { sub_id: attribution.sub_id }),
    day: deposit.day,
    amount: deposit.amount,
    insert_id: deposit.insert_id,
    urm_date_time: deposit.urm_date_time,
  });
  const countFtd = (item: StreamItem, attribution: Attribution, deposit: FirstDeposit) => {
    contribute(item, attribution, deposit.day, { ftds: 1 });
    outcome.ftds.push(depositRow(attribution, deposit));
  };

  for (const item of input.items) {
    const record = item.envelope.record as Record<string, unknown> & StreamItem['envelope']['record'];
    if (whetherSeen(ledger, item.shardId, item.sequenceNumber, record.urm_insert_id) !== 'new') continue;
    remember(ledger, item.shardId, item.sequenceNumber, record.urm_insert_id, item.envelope.received_at);
    changed = true;
    const dateTime = record.urm_date_time as string;
    const day = dayOf(dateTime);
    if (day === undefined) {
      outcome.rejections.push({ item, reason: unreadableTime });
      continue;
    }

    if (record.event === affiliateAttributedEvent) {
      if (ledger.attribution || typeof record.urm_aff_id !== 'string' || record.urm_aff_id.length === 0) continue;
      const linkId = typeof record.urm_aff_link_id === 'string' && record.urm_aff_link_id.length > 0 ? record.urm_aff_link_id : noLink;
      const subId = typeof record.urm_aff === 'string' && record.urm_aff.length > 0 ? record.urm_aff : undefined;
      const attribution: Attribution = {
        affiliate_id: record.urm_aff_id,
        link_id: linkId,
        ...(subId === undefined ? {} : { sub_id: subId }),
        day,
        urm_date_time: dateTime,
        insert_id: record.urm_insert_id,
      };
      ledger.attribution = attribution;
      contribute(item, attribution, day, { registrations: 1 });
      outcome.registrations.push({
        app_id: appId,
        affiliate_id: attribution.affiliate_id,
        profile_id: profileId,
        link_id: linkId,
        ...(subId === undefined ? {} : { sub_id: subId }),
        day,
        urm_date_time: dateTime,
      });
      // What the player did before is the affiliate's too, on the days it happened.
      for (const [moneyDay, sums] of Object.entries(ledger.unattributed).sort(([a], [b]) => a.localeCompare(b))) {
        contribute(item, attribution, moneyDay, sums);
      }
      ledger.unattributed = {};
      if (ledger.first_deposit) {
        countFtd(item, attribution, ledger.first_deposit);
        outcome.deposits.push(depositRow(attribution, ledger.first_deposit));
      }
      continue;
    }

    if (record.event === MESSAGE_SUPPRESSED_EVENT) {
      // The send gate's refusals and deferrals, counted per application, day and reason: once, as the ledger remembers the record.
      const reason = suppressedReason(record);
      if (reason) outcome.contributions.push({ app_id: appId, day, shard: item.shardId, seq: item.sequenceNumber, figures: { suppressed: { [reason]: 1 } } });
      continue;
    }

    if (!Object.hasOwn(settings.money_events, record.event as string)) continue;
    const kind = settings.money_events[record.event as string];
    const money = mainAmount(record, settings.currency);
    if ('reason' in money) {
      outcome.rejections.push({ item, reason: money.reason });
      continue;
    }
    const sums: Partial<MoneySums> = { [sumOfKind[kind]]: money.amount, ...(kind === 'deposit' ? { deposit_count: 1 } : {}) };
    // On the ledger, so the conditional write that records the record as counted carries it: exactly once by construction.
    ledger.lifetime = addFigures(ledger.lifetime ?? zeroMoney(), sums);
    if (kind === 'deposit' && isLatest(dateTime, ledger.last_deposit)) ledger.last_deposit = { day, amount: money.amount, urm_date_time: dateTime };
    const firstDeposit = kind === 'deposit' && !ledger.first_deposit;
    if (firstDeposit) ledger.first_deposit = { day, amount: money.amount, insert_id: record.urm_insert_id, urm_date_time: dateTime };
    // The application's day counts every player's money at once, attributed or not.
    outcome.contributions.push({ app_id: appId, day, shard: item.shardId, seq: item.sequenceNumber, figures: firstDeposit ? { ...sums, ftds: 1 } : sums });
    if (ledger.attribution) {
      contribute(item, ledger.attribution, day, sums);
      if (firstDeposit) countFtd(item, ledger.attribution, ledger.first_deposit!);
      if (kind === 'deposit') {
        outcome.deposits.push(depositRow(ledger.attribution, { day, amount: money.amount, insert_id: record.urm_insert_id, urm_date_time: dateTime }));
      }
    } else {
      ledger.unattributed[day] = addFigures(ledger.unattributed[day] ?? zeroMoney(), sums);
    }
  }

  if (changed) {
    pruneRecent(ledger, input.now);
    ledger.version = (input.stored?.version ?? 0) + 1;
    ledger.updated_at = input.now.toISOString();
    outcome.ledger = ledger;
  }
  return outcome;
}

/** Whether a deposit at `dateTime` (readable: its day was) is the player's latest so far. */
const isLatest = (dateTime: string, last: LastDeposit | undefined) => last === undefined || Date.parse(dateTime) >= Date.parse(last.urm_date_time);

export const zeroMoney = (): MoneySums => ({ deposit_count: 0, deposits: '0', withdrawals: '0', bets: '0', wins: '0', bonuses: '0' });

/** A counted click: one click for its affiliate, link and day; or why it counts nowhere. */
export function clickContribution(item: StreamItem): Contribution | { reason: string } {
  const record = item.envelope.record as Record<string, unknown> & StreamItem['envelope']['record'];
  const { affiliate_id: affiliateId, link_id: linkId, sub_id: subId, urm_date_time: dateTime } = record;
  if (typeof affiliateId !== 'string' || affiliateId.length === 0 || typeof linkId !== 'string' || linkId.length === 0) {
    return { reason: 'click: affiliate_id and link_id are required' };
  }
  const day = dayOf(dateTime);
  if (day === undefined) return { reason: `click: ${unreadableTime}` };
  return {
    app_id: record.app_id,
    affiliate_id: affiliateId,
    link_id: linkId,
    ...(typeof subId === 'string' && subId.length > 0 ? { sub_id: subId } : {}),
    day,
    shard: item.shardId,
    seq: item.sequenceNumber,
    figures: { clicks: 1 },
  };
}

export const dayRowKey = (c: Pick<Contribution, 'app_id' | 'affiliate_id' | 'day' | 'link_id'>) =>
  c.affiliate_id === undefined
    ? { pk: appPk(c.app_id), sk: appDaySk(c.day) }
    : { pk: affiliatePk(c.app_id, c.affiliate_id), sk: dayRowSk(c.day, c.link_id ?? noLink) };

/**
 * The day row with the contributions it does not include yet: those after
 * the row's last applied sequence number of their shard (as stored, so
 * several contributions of one record all count). Undefined when it
 * includes them all: nothing to write. A link's day row admits the sub-ids
 * of the contributions it takes into `sub_ids` while there is room.
 */
export function applyContributions(stored: StoredDayRow | undefined, contributions: Contribution[]): StoredDayRow | undefined {
  if (contributions.length === 0) return undefined;
  const first = contributions[0];
  const { pk, sk } = dayRowKey(first);
  const template = {
    pk,
    sk,
    app_id: first.app_id,
    ...(first.affiliate_id === undefined ? {} : { affiliate_id: first.affiliate_id, link_id: first.link_id ?? noLink }),
    day: first.day,
  };
  return applyTo(stored, template, contributions, (row, contribution) => {
    const subId = contribution.sub_id;
    if (subId === undefined || contribution.affiliate_id === undefined || !mayHaveRow(subId)) return;
    const admitted = row.sub_ids ?? [];
    if (admitted.length < subIdsPerLinkDay && !admitted.includes(subId)) row.sub_ids = [...admitted, subId];
  });
}

/** The key of the sub-id row a contribution counts in, or undefined without a sub-id (it costs nothing more). */
export function subIdRowKey(contribution: Contribution, dayRow: Pick<StoredDayRow, 'sub_ids'> | undefined): { pk: string; sk: string } | undefined {
  if (contribution.sub_id === undefined || contribution.affiliate_id === undefined) return undefined;
  const bucket = subIdBucket(contribution.sub_id, dayRow?.sub_ids);
  return { pk: affiliatePk(contribution.app_id, contribution.affiliate_id), sk: subIdRowSk(contribution.day, contribution.link_id ?? noLink, bucket) };
}

/** The keys a batch may write for a link's day: each sub-id's own row and `(other)`, read with the day rows in one call. */
export function subIdRowCandidates(contributions: Contribution[]): { pk: string; sk: string }[] {
  const keys = new Map<string, { pk: string; sk: string }>();
  for (const c of contributions) {
    if (c.sub_id === undefined || c.affiliate_id === undefined) continue;
    const pk = affiliatePk(c.app_id, c.affiliate_id);
    const link = c.link_id ?? noLink;
    for (const sk of [mayHaveRow(c.sub_id) ? subIdRowSk(c.day, link, c.sub_id) : undefined, subIdRowSk(c.day, link, otherSubId)]) {
      if (sk !== undefined) keys.set(rowKeyString({ pk, sk }), { pk, sk });
    }
  }
  return [...keys.values()];
}

/**
 * A sub-id row with the contributions it does not include yet (the day rows'
 * rule); `contributions` all count in the row `key` names, `subId` its sub-id
 * or `(other)`.
 */
export function applySubIdContributions(
  stored: StoredDayRow | undefined,
  key: { pk: string; sk: string },
  subId: string,
  contributions: Contribution[],
): StoredDayRow | undefined {
  if (contributions.length === 0) return undefined;
  const first = contributions[0];
  return applyTo(
    stored,
    { ...key, app_id: first.app_id, affiliate_id: first.affiliate_id, link_id: first.link_id ?? noLink, sub_id: subId, day: first.day },
    contributions,
  );
}

function applyTo(
  stored: StoredDayRow | undefined,
  template: Pick<StoredDayRow, 'pk' | 'sk' | 'app_id' | 'day'> & Partial<StoredDayRow>,
  contributions: Contribution[],
  onApplied: (row: StoredDayRow, contribution: Contribution) => void = () => {},
): StoredDayRow | undefined {
  const row: StoredDayRow = structuredClone(stored ?? { ...template, ...zeroFigures(), applied: {}, version: 0 });
  const before = stored?.applied ?? {};
  let added = false;
  for (const contribution of contributions) {
    const last = before[contribution.shard];
    if (last !== undefined && compareSequence(contribution.seq, last) <= 0) continue;
    addFigures(row, contribution.figures);
    onApplied(row, contribution);
    const mark = row.applied[contribution.shard];
    if (mark === undefined || compareSequence(contribution.seq, mark) > 0) row.applied[contribution.shard] = contribution.seq;
    added = true;
  }
  if (!added) return undefined;
  row.version = (stored?.version ?? 0) + 1;
  return row;
}

/** A registration or FTD row as stored under its affiliate: written with a plain put, the same row every time. */
export type TraceRow = (RegistrationRow | FtdRow) & { pk: string; sk: string };

export function traceRowOf(row: RegistrationRow | FtdRow): TraceRow {
  const sk = 'amount' in row ? ftdSk(row.day, row.profile_id) : registrationSk(row.day, row.profile_id);
  return { pk: affiliatePk(row.app_id, row.affiliate_id), sk, ...row };
}

/** Where the funnel consumer keeps what it counts (the `funnel` table). */
export interface FunnelStore {
  /** Players' ledgers by pk, read consistently, in as few calls as possible. */
  ledgers(pks: string[]): Promise<Map<string, StoredLedger>>;
  /** Day rows by `pk` + NUL + `sk`, read consistently, in as few calls as possible. */
  dayRows(keys: { pk: string; sk: string }[]): Promise<Map<string, StoredDayRow>>;
  putTraceRows(rows: TraceRow[]): Promise<void>;
  /** Writes the row if its version is still `expectedVersion` (undefined: it must not exist); false on conflict. */
  putDayRow(row: StoredDayRow, expectedVersion: number | undefined): Promise<boolean>;
  /** Like putDayRow, for a ledger. */
  putLedger(ledger: StoredLedger, expectedVersion: number | undefined): Promise<boolean>;
}

/** Port: one player's ledger, read (the console's player page: one GetItem). */
export interface LedgerReader {
  ledger(appId: string, profileId: string): Promise<StoredLedger | undefined>;
}

export const rowKeyString = (key: { pk: string; sk: string }) => `${key.pk}\u0000${key.sk}`;
