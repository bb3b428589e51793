/**
 * A campaign's results (docs/api.md, "Campaign results"): what each event
 * naming a campaign (`campaign` = `journey:<id>` or `broadcast:<id>`) counts,
 * per step and per UTC day, and the money of the players it reached against
 * its holdout. Pure: the count-campaigns consumer stores, the back office reads.
 *
 * Money is attributed as it arrives: a money event of a player who received
 * the campaign (or was held out of it) within ATTRIBUTION_DAYS before counts
 * for that group. Exact decimals throughout.
 */
import DecimalJs from 'decimal.js';
import { EMAIL_CLICKED_EVENT, EMAIL_OPENED_EVENT } from './email-events';
import { dayOf, mainAmount } from './funnel';
import type { MoneySettings } from './money-settings';
import { PUSH_SENT_EVENT } from './push';
import {
  EMAIL_BOUNCED_EVENT,
  EMAIL_COMPLAINED_EVENT,
  EMAIL_DELIVERED_EVENT,
  MESSAGE_SUPPRESSED_EVENT,
  UNSUBSCRIBED_EVENT,
  suppressionReasons,
  type SuppressionReason,
} from './send-gate';

const Decimal = DecimalJs.clone({ precision: 200, toExpNeg: -300, toExpPos: 300 });

/** A deposit counts for a campaign when it is made within this many days after the player's latest send (or holdout). */
export const ATTRIBUTION_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

export const JOURNEY_ENTERED_EVENT = 'urm_journey_entered';
export const CAMPAIGN_HOLDOUT_EVENT = 'urm_campaign_holdout';
/** The events of a send (functions/messaging/email.ts, push.ts, send-template.ts). */
const SENT_EVENTS: ReadonlySet<string> = new Set(['urm_email_sent', PUSH_SENT_EVENT, 'urm_webhook_sent']);
const FAILED_EVENT = 'urm_message_failed';

export const campaignKinds = ['journey', 'broadcast'] as const;
export type CampaignKind = (typeof campaignKinds)[number];
const CAMPAIGN = /^(journey|broadcast):([A-Za-z0-9_-]{1,128})$/;
const STEP = /^[A-Za-z0-9_-]{1,64}$/;
/** Where a journey's entries and a broadcast's sends count: not a step of their own. */
export const NO_STEP = '-';

export function parseCampaign(value: unknown): { kind: CampaignKind; id: string } | undefined {
  const match = typeof value === 'string' ? CAMPAIGN.exec(value) : null;
  return match ? { kind: match[1] as CampaignKind, id: match[2] } : undefined;
}

/** The figures counted per step and per day. */
export const stepFigures = ['entered', 'sent', 'failed', 'delivered', 'bounced', 'complained', 'opened', 'clicked', 'unsubscribed', 'holdout'] as const;
export type StepFigure = (typeof stepFigures)[number];
/** A figure that also counts each player once (`<figure>_unique`). */
export const uniqueFigures = ['sent', 'opened', 'clicked', 'holdout'] as const;
type UniqueFigure = (typeof uniqueFigures)[number];
export type Group = 'recipients' | 'holdout';

const figureOfEvent: Record<string, StepFigure> = {
  [JOURNEY_ENTERED_EVENT]: 'entered',
  [FAILED_EVENT]: 'failed',
  [EMAIL_DELIVERED_EVENT]: 'delivered',
  [EMAIL_BOUNCED_EVENT]: 'bounced',
  [EMAIL_COMPLAINED_EVENT]: 'complained',
  [EMAIL_OPENED_EVENT]: 'opened',
  [EMAIL_CLICKED_EVENT]: 'clicked',
  [UNSUBSCRIBED_EVENT]: 'unsubscribed',
  [CAMPAIGN_HOLDOUT_EVENT]: 'holdout',
};

/** What one event counts: a figure (or a suppression's reason) of a campaign's step on a day, once per insert id. */
export interface Tally {
  campaign: string;
  step: string;
  day: string;
  /** The counter names to add 1 to: a figure, or `suppressed_<reason>`. */
  counter: string;
  /** Also counted once per player. */
  unique?: UniqueFigure;
  /** The player now belongs to this group of the campaign, from this time (the money window's start). */
  receipt?: Group;
  at: string;
}

/** What an event counts for its campaign, or undefined when it names none or counts nothing. */
export function tallyOf(record: Record<string, unknown>): Tally | undefined {
  const event = record.event;
  if (typeof event !== 'string' || parseCampaign(record.campaign) === undefined) return undefined;
  const at = record.urm_date_time;
  const day = dayOf(at);
  if (day === undefined || typeof at !== 'string') return undefined;
  const step = typeof record.campaign_step === 'string' && STEP.test(record.campaign_step) ? record.campaign_step : NO_STEP;
  const common = { campaign: record.campaign as string, step, day, at };
  if (SENT_EVENTS.has(event)) return { ...common, counter: 'sent', unique: 'sent', receipt: 'recipients' };
  if (event === MESSAGE_SUPPRESSED_EVENT) {
    const reason = record.reason;
    return (suppressionReasons as readonly string[]).includes(reason as string)
      ? { ...common, counter: `suppressed_${reason as SuppressionReason}` }
      : undefined;
  }
  const figure = figureOfEvent[event];
  if (figure === undefined) return undefined;
  if (figure === 'holdout') return { ...common, counter: figure, unique: 'holdout', receipt: 'holdout' };
  if (figure === 'opened' || figure === 'clicked') return { ...common, counter: figure, unique: figure };
  return { ...common, counter: figure };
}

/** A player's latest send (or holdout) of a campaign: where their money counts. */
export interface Receipt {
  campaign: string;
  group: Group;
  at: string;
}

export interface MoneyDelta {
  campaign: string;
  group: Group;
  day: string;
  deposit_count: number;
  deposits: string;
  /** bets − wins − bonuses, as the affiliate reports count NGR (functions/domain/commission.ts). */
  ngr: string;
}

/**
 * What a money event of the player adds to each campaign they received (or
 * were held out of) within ATTRIBUTION_DAYS before it; nothing for an event
 * the funnel would not count (no money mapping, an unreadable amount).
 */
export function moneyDeltas(record: Record<string, unknown>, settings: MoneySettings, receipts: Receipt[]): MoneyDelta[] {
  const name = record.event;
  if (typeof name !== 'string' || !Object.hasOwn(settings.money_events, name)) return [];
  const at = Date.parse(String(record.urm_date_time));
  const day = dayOf(record.urm_date_time);
  if (!Number.isFinite(at) || day === undefined) return [];
  const money = mainAmount(record, settings.currency);
  if ('reason' in money) return [];
  const kind = settings.money_events[name];
  const amount = new Decimal(money.amount);
  const ngr = kind === 'bet' ? amount : kind === 'win' || kind === 'bonus' ? amount.negated() : new Decimal(0);
  if (kind !== 'deposit' && ngr.isZero()) return [];
  return receipts
    .filter((receipt) => {
      const from = Date.parse(receipt.at);
      return at >= from && at - from <= ATTRIBUTION_DAYS * DAY_MS;
    })
    .map((receipt) => ({
      campaign: receipt.campaign,
      group: receipt.group,
      day,
      deposit_count: kind === 'deposit' ? 1 : 0,
      deposits: kind === 'deposit' ? amount.toFixed() : '0',
      ngr: ngr.toFixed(),
    }));
}

// ---- what is stored, and what the results say --------------------------

export type Counters = Record<string, number>;

export interface GroupMoney {
  /** Players in the group (unique recipients of a send; players held out). */
  players: number;
  /** Of them, those with a deposit within the window. */
  depositors: number;
  deposit_count: number;
  deposits: string;
  ngr: string;
}

export interface StoredResults {
  steps: Record<string, Counters>;
  days: Record<string, Counters>;
  money: Partial<Record<Group, GroupMoney>>;
}

export const zeroGroupMoney = (): GroupMoney => ({ players: 0, depositors: 0, deposit_count: 0, deposits: '0', ngr: '0' });

export interface GroupFigures extends GroupMoney {
  per_1000: { depositors: string; deposits: string; ngr: string };
}

export interface MoneyResults {
  currency: string;
  window_days: number;
  recipients: GroupFigures;
  holdout: GroupFigures;
  /** Recipients' per-1,000 figures minus the holdout's; absent without a holdout to compare with. */
  uplift?: { depositors: string; deposits: string; ngr: string };
}

/** Per 1,000 players of the group, to two places (exact, half-up); 0 for an empty group. */
function per1000(value: string | number, players: number): string {
  if (players === 0) return '0.00';
  return new Decimal(value).times(1000).div(players).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
}

function groupFigures(money: GroupMoney | undefined): GroupFigures {
  const group = money ?? zeroGroupMoney();
  return {
    ...group,
    per_1000: {
      depositors: per1000(group.depositors, group.players),
      deposits: per1000(group.deposits, group.players),
      ngr: per1000(group.ngr, group.players),
    },
  };
}

export function moneyResults(stored: StoredResults['money'], currency: string): MoneyResults {
  const recipients = groupFigures(stored.recipients);
  const holdout = groupFigures(stored.holdout);
  const minus = (a: string, b: string) => new Decimal(a).minus(b).toFixed(2);
  return {
    currency,
    window_days: ATTRIBUTION_DAYS,
    recipients,
    holdout,
    ...(holdout.players > 0 && recipients.players > 0
      ? {
          uplift: {
            depositors: minus(recipients.per_1000.depositors, holdout.per_1000.depositors),
            deposits: minus(recipients.per_1000.deposits, holdout.per_1000.deposits),
            ngr: minus(recipients.per_1000.ngr, holdout.per_1000.ngr),
          },
        }
      : {}),
  };
}

/** The counters of a step (or the totals) as the results show them: every figure, suppressions by reason. */
export interface Figures {
  entered: number;
  sent: number;
  sent_unique: number;
  suppressed: number;
  suppressed_by_reason: Partial<Record<SuppressionReason, number>>;
  failed: number;
  delivered: number;
  bounced: number;
  complained: number;
  opened: number;
  opened_unique: number;
  clicked: number;
  clicked_unique: number;
  unsubscribed: number;
  holdout: number;
}

export function figuresOf(counters: Counters | undefined): Figures {
  const c = counters ?? {};
  const n = (name: string) => c[name] ?? 0;
  const byReason: Partial<Record<SuppressionReason, number>> = {};
  for (const reason of suppressionReasons) if (n(`suppressed_${reason}`) > 0) byReason[reason] = n(`suppressed_${reason}`);
  return {
    entered: n('entered'),
    sent: n('sent'),
    sent_unique: n('sent_unique'),
    suppressed: Object.values(byReason).reduce((sum, count) => sum + count, 0),
    suppressed_by_reason: byReason,
    failed: n('failed'),
    delivered: n('delivered'),
    bounced: n('bounced'),
    complained: n('complained'),
    opened: n('opened'),
    opened_unique: n('opened_unique'),
    clicked: n('clicked'),
    clicked_unique: n('clicked_unique'),
    unsubscribed: n('unsubscribed'),
    holdout: n('holdout'),
  };
}

/** The steps' counters added up (a player counted once per step may count in several: totals of uniques are per step, summed). */
export function sumCounters(all: Counters[]): Counters {
  const total: Counters = {};
  for (const counters of all) for (const [name, value] of Object.entries(counters)) total[name] = (total[name] ?? 0) + value;
  return total;
}

/** Where a campaign's results are kept, exactly once per event (functions/adapters/dynamo-campaign-results.ts). */
/** An event's tally, of the player `profileId`; `insertId` makes it once. */
export interface TallyEntry {
  appId: string;
  profileId: string;
  insertId: string;
  tally: Tally;
}

export interface TallyCounts {
  counted: number;
  /** Counted before (a redelivery), or the same event twice in the entries. */
  repeated: number;
}

export interface CampaignResultsStore {
  /**
   * Counts each entry once, and writes the receipts of sends and holdouts. A batch's entries are counted together:
   * the counters a campaign's events share are written once per batch, not once per event.
   */
  tally(entries: TallyEntry[]): Promise<TallyCounts>;
  /** The player's receipts still within the window. */
  receipts(appId: string, profileId: string): Promise<Receipt[]>;
  /** Adds a money event's delta, once per (campaign, group, insert id); the player counts as a depositor once. */
  addMoney(appId: string, profileId: string, insertId: string, delta: MoneyDelta): Promise<boolean>;
  read(appId: string, campaign: string): Promise<StoredResults>;
}
