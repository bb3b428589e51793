/**
 * An application's figures (the console's home, `admin app figures`): kept as
 * records while records are applied, never counted by reading timelines.
 *
 * - Players and registrations, in the `figures` table, by the profile
 *   consumer: `app#<app_id>` / `total` (players that exist now) and
 *   `app#<app_id>` / `d#<day>` (profiles that came into being that UTC day,
 *   as received). Moved in the same transaction as the profile's conditional
 *   write, so a redelivered or retried record never moves them twice.
 * - Money and FTDs, in the `funnel` table, by the funnel consumer:
 *   `app#<app_id>` / `d#<day>` rows made of the same contributions and the
 *   same conditional writes as an affiliate's day rows (functions/domain/funnel.ts).
 */
import type { MoneySums } from './funnel';
import type { ProfileState, StoredProfile } from './profile-state';

export const figuresPk = (appId: string) => `app#${appId}`;
export const totalSk = 'total';
export const registrationDaySk = (day: string) => `d#${day}`;

/** What a profile write moves: the players of its application, and (a new player) the registrations of its day. */
export interface PlayerCountChange {
  app_id: string;
  players: 1 | -1;
  /** The UTC day the profile came into being (as received); absent for a delete. */
  registered_on?: string;
}

/**
 * What writing `state` over `stored` moves: a profile coming into being adds a
 * player (and a registration on its day), a delete takes one away; an update,
 * or a profile made and deleted in one go, moves nothing.
 */
export function playerCountChange(stored: Pick<StoredProfile, 'exists'> | undefined, state: ProfileState): PlayerCountChange | undefined {
  const before = stored?.exists === true;
  if (before === state.exists) return undefined;
  if (!state.exists) return { app_id: state.appId, players: -1 };
  return { app_id: state.appId, players: 1, registered_on: state.updatedAt.slice(0, 10) };
}

/** The players and registrations the profile consumer keeps. */
export interface PlayerCounts {
  players: number;
  /** Registrations by day, days without any absent. */
  registrations: Record<string, number>;
}

/** Port: the `figures` table, read. */
export interface PlayerCountReader {
  /** The players now, and the registrations of `from` (YYYY-MM-DD) and after. */
  playerCounts(appId: string, from: string): Promise<PlayerCounts>;
  /** The players now (one GetItem). */
  players(appId: string): Promise<number>;
}

/** Port: the funnel's application-wide day rows, read. */
export interface AppMoneyReader {
  appDays(appId: string, from: string, to: string): Promise<AppMoneyDay[]>;
}

export type AppMoneyDay = MoneySums & { day: string; ftds: number; suppressed?: Record<string, number> };

/** One day of the figures; money exact, in the main currency. */
export interface FiguresDay {
  day: string;
  registrations: number;
  ftds: number;
  deposit_count: number;
  deposits: string;
  withdrawals: string;
  ngr: string;
}

export type FiguresTotals = Omit<FiguresDay, 'day'>;

export interface ApplicationFigures {
  currency: string;
  /** Players that exist now. */
  players: number;
  from: string;
  to: string;
  /** The range's figures. */
  totals: FiguresTotals;
  /** The same number of days just before `from`: what the change is measured against. */
  previous: FiguresTotals;
  /** Every day of the range, oldest first, days without anything as zeros. */
  days: FiguresDay[];
  /** Messages the send gate refused or deferred in the range, by reason (`urm_message_suppressed`); reasons without any are left out. */
  not_sent: Record<string, number>;
}

export const figuresLimits = { defaultDays: 30, maxDays: 366 } as const;

/** The UTC day `n` days before `day`. */
export function daysBefore(day: string, n: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - n);
  return date.toISOString().slice(0, 10);
}
