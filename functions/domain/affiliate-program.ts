/**
 * The affiliate programme: what the operator configures (money events, main
 * currency, plans, affiliate status), what the funnel consumer keeps (per
 * affiliate, link and day: clicks, registrations, FTDs and money; per player:
 * the attribution and first deposit behind them), and the report read from it.
 * Money is carried as decimal strings everywhere (decimal.js computes), never
 * as floating-point numbers.
 */

/** What a money event means to the programme. */
export const moneyKinds = ['deposit', 'withdrawal', 'bet', 'win', 'bonus'] as const;
export type MoneyKind = (typeof moneyKinds)[number];

/** An application's programme settings (kept on its App item). */
export interface ProgrammeSettings {
  /** ISO 4217 code of the main currency every figure is reported in (default EUR). */
  currency?: string;
  /** The application's event names that carry money, and what each means: `{"Deposit": "deposit", "Bet": "bet"}`. */
  money_events?: Record<string, MoneyKind>;
  /** Whether a newly registered affiliate is approved at once or waits as pending (default). */
  affiliate_approval?: 'approve' | 'pending';
  /** Whether the portal's "Join the programme" page takes applications (`open`) or is a 404 (`closed`, the default). */
  affiliate_signup?: 'open' | 'closed';
  /** The plan a newly registered affiliate gets, if any. */
  default_plan_id?: string;
  /** The smallest statement total paid out (decimal string, default "0.00"); a smaller one is carried forward. */
  min_payout?: string;
}

export const defaultCurrency = 'EUR';

export const affiliateStatuses = ['pending', 'approved', 'suspended'] as const;
export type AffiliateStatus = (typeof affiliateStatuses)[number];

/**
 * A commission plan. CPA: `amount` per qualified FTD (first deposit of at
 * least `min_deposit`); RevShare: `percent` of NGR, a negative month carried
 * into the next when `carry_over`; hybrid: both.
 */
export interface Plan {
  app_id: string;
  plan_id: string;
  name: string;
  cpa?: { amount: string; min_deposit: string };
  revshare?: { percent: string; carry_over: boolean };
  created_at: string;
  /** Terms never change once written: an edit is a new version (1, 2, …); absent on plans stored before versions: 1. */
  version?: number;
  /** When this version was written (the plan's `created_at` for version 1). */
  version_created_at?: string;
  /** An archived plan is not assigned any more; affiliates on it keep earning under it. */
  archived_at?: string;
}

/** A tracking link of an affiliate: `{base_url}/t/{link_id}` redirects to `landing_url`. */
export interface LinkRecord {
  link_id: string;
  app_id: string;
  affiliate_id: string;
  name: string;
  /** On one of the application's site origins. */
  landing_url: string;
  created_at: string;
}

export interface LinkStore {
  create(link: LinkRecord): Promise<void>;
  get(linkId: string): Promise<LinkRecord | undefined>;
  /** The affiliate's links, oldest first. */
  listByAffiliate(appId: string, affiliateId: string): Promise<LinkRecord[]>;
}

/**
 * What goes on the stream for a counted click (kind `click`). `profile_id` is
 * the visitor (`urm-visitor-` + a hash), so a visitor's clicks share a shard;
 * `urm_insert_id` is unique per counted click.
 */
export interface ClickRecord {
  app_id: string;
  profile_id: string;
  urm_insert_id: string;
  urm_date_time: string;
  affiliate_id: string;
  link_id: string;
  /** The affiliate's sub-id / campaign tag (`urm_aff` on the click address). */
  sub_id?: string;
}

/** A link id in aggregates when the attribution named none. */
export const noLink = '-';

/** Counts and sums of one affiliate, link and UTC day, in the main currency. */
export interface FunnelDayRow {
  app_id: string;
  affiliate_id: string;
  link_id: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  clicks: number;
  registrations: number;
  ftds: number;
  deposit_count: number;
  deposits: string;
  withdrawals: string;
  bets: string;
  wins: string;
  bonuses: string;
  /** The sub-ids given their own row that day (functions/domain/funnel.ts); absent when none. */
  sub_ids?: string[];
}

/** A sub-id's figures on one link and day (`sub_id` is `(other)` for those past the bound). */
export interface SubIdDayRow extends Omit<FunnelDayRow, 'sub_ids'> {
  sub_id: string;
}

/** A player's first deposit, under the affiliate the player is attributed to: the trace of a CPA line. */
export interface FtdRow {
  app_id: string;
  affiliate_id: string;
  profile_id: string;
  link_id: string;
  /** The sub-id of the player's attribution (for postbacks). */
  sub_id?: string;
  day: string;
  /** In the main currency. */
  amount: string;
  /** The deposit event's insert id. */
  insert_id: string;
  urm_date_time: string;
}

/** A player attributed to an affiliate: a registration, and the players behind a RevShare line. */
export interface RegistrationRow {
  app_id: string;
  affiliate_id: string;
  profile_id: string;
  link_id: string;
  sub_id?: string;
  day: string;
  urm_date_time: string;
}

/** Reading what the funnel consumer keeps; days are inclusive YYYY-MM-DD bounds. */
export interface FunnelReader {
  days(appId: string, affiliateId: string, from: string, to: string): Promise<FunnelDayRow[]>;
  ftds(appId: string, affiliateId: string, from: string, to: string): Promise<FtdRow[]>;
  registrations(appId: string, affiliateId: string, from: string, to: string): Promise<RegistrationRow[]>;
  /** The sub-id rows of the range; a reader without them reports no sub-ids. */
  subIdDays?(appId: string, affiliateId: string, from: string, to: string): Promise<SubIdDayRow[]>;
}

/** The figures of a report row; money as decimal strings with two decimals, in the report's currency. */
export interface FunnelFigures {
  clicks: number;
  registrations: number;
  ftds: number;
  qualified_ftds: number;
  deposits: string;
  withdrawals: string;
  ngr: string;
  cpa: string;
  revshare: string;
  commission: string;
  /** Registrations per click, 4 decimal places; null without clicks. */
  registration_rate: string | null;
  /** FTDs per registration, 4 decimal places; null without registrations. */
  ftd_rate: string | null;
}

/**
 * How the RevShare of one calendar month of a report is settled: the month's
 * days (those within the report's range) add up to `revshare`; with
 * `carried_in` (zero or negative) it pays `payable` = max(0, sum), and with
 * carry-over a negative sum is `carried_out` into the next month.
 */
export interface RevShareMonth {
  /** YYYY-MM. */
  month: string;
  /** The month's days within the report: YYYY-MM-DD bounds. */
  from: string;
  to: string;
  revshare: string;
  carried_in: string;
  payable: string;
  carried_out: string;
}

/** An affiliate's report for a period (GET /api/affiliates/{affiliate_id}/report, the portal, the CLI). */
export interface AffiliateReport {
  affiliate_id: string;
  currency: string;
  from: string;
  to: string;
  days: (FunnelFigures & { date: string })[];
  links: (FunnelFigures & { link_id: string; name?: string })[];
  /** By link and sub-id (`(other)`: past the bound; `(none)`: without a sub-id), when asked for. */
  sub_ids?: (FunnelFigures & { link_id: string; name?: string; sub_id: string })[];
  totals: FunnelFigures;
  /** The plan of the deal in force on the range's last day, if any. */
  plan_id?: string;
  /** The deals in force within the range, clipped to it, oldest first (each day row earns under its day's). */
  deals?: { plan_id: string; plan_version: number; name: string; description: string; from: string; to: string }[];
  /** The RevShare settlement by calendar month (empty without RevShare): totals.commission = totals.cpa + the months' payable. */
  months?: RevShareMonth[];
}
