/**
 * An application's figures: the players now, and for the last days (the
 * console's home, `admin app figures`) registrations, FTDs, deposits and NGR
 * by day, against as many days before. Read from what the consumers keep
 * (functions/domain/figures.ts): one Query of the `figures` table and one of
 * the funnel's application rows, whatever the number of players or events.
 */
import DecimalJs from 'decimal.js';
import { defaultCurrency } from '../domain/affiliate-program';
import type { AppStore } from '../domain/apps';
import { daysBetween, ngrOf } from '../domain/commission';
import { ValidationError } from '../domain/errors';
import {
  daysBefore,
  figuresLimits,
  type AppMoneyDay,
  type AppMoneyReader,
  type ApplicationFigures,
  type FiguresDay,
  type FiguresTotals,
  type PlayerCountReader,
  type PlayerCounts,
} from '../domain/figures';

export interface FiguresPorts {
  /** The application's main currency, which the funnel counts money in. */
  apps: Pick<AppStore, 'get'>;
  playerCounts: PlayerCountReader;
  appMoney: AppMoneyReader;
  now: () => Date;
}

/** The figures of the `days` days ending today (UTC), with the change against the `days` before. */
export function applicationFigures(ports: FiguresPorts) {
  return async (appId: string, query: { days?: number } = {}): Promise<ApplicationFigures> => {
    const days = query.days ?? figuresLimits.defaultDays;
    if (!Number.isInteger(days) || days < 1 || days > figuresLimits.maxDays) {
      throw new ValidationError([`days must be a whole number from 1 to ${figuresLimits.maxDays}`], 'request is invalid');
    }
    const to = ports.now().toISOString().slice(0, 10);
    const from = daysBefore(to, 2 * days - 1);
    const [app, counts, money] = await Promise.all([
      ports.apps.get(appId),
      ports.playerCounts.playerCounts(appId, from),
      ports.appMoney.appDays(appId, from, to),
    ]);
    return figuresOf({ currency: app?.currency ?? defaultCurrency, to, days, counts, money });
  };
}

const Decimal = DecimalJs.clone({ precision: 200, toExpNeg: -300, toExpPos: 300 });
const zeroTotals = (): FiguresTotals => ({ registrations: 0, ftds: 0, deposit_count: 0, deposits: '0', withdrawals: '0', ngr: '0' });

function add(into: FiguresTotals, day: FiguresTotals): FiguresTotals {
  return {
    registrations: into.registrations + day.registrations,
    ftds: into.ftds + day.ftds,
    deposit_count: into.deposit_count + day.deposit_count,
    deposits: new Decimal(into.deposits).plus(day.deposits).toFixed(),
    withdrawals: new Decimal(into.withdrawals).plus(day.withdrawals).toFixed(),
    ngr: new Decimal(into.ngr).plus(day.ngr).toFixed(),
  };
}

/**
 * The figures of the `days` days ending `to` (included) and of as many days
 * before them, from what the stores read over both (`from` = `to` − 2·days + 1).
 */
export function figuresOf(input: { currency: string; to: string; days: number; counts: PlayerCounts; money: AppMoneyDay[] }): ApplicationFigures {
  const { to, days } = input;
  const from = daysBefore(to, days - 1);
  const money = new Map(input.money.map((row) => [row.day, row]));
  const dayOf = (day: string): FiguresDay => {
    const row = money.get(day);
    return {
      day,
      registrations: input.counts.registrations[day] ?? 0,
      ftds: row?.ftds ?? 0,
      deposit_count: row?.deposit_count ?? 0,
      deposits: row ? new Decimal(row.deposits).toFixed() : '0',
      withdrawals: row ? new Decimal(row.withdrawals).toFixed() : '0',
      ngr: row ? ngrOf(row).toFixed() : '0',
    };
  };
  const range = daysBetween(from, to).map(dayOf);
  const before = daysBetween(daysBefore(from, days), daysBefore(from, 1)).map(dayOf);
  const notSent: Record<string, number> = {};
  for (const row of input.money) {
    if (row.day < from || row.day > to) continue;
    for (const [reason, n] of Object.entries(row.suppressed ?? {})) notSent[reason] = (notSent[reason] ?? 0) + n;
  }
  const total = (list: FiguresDay[]) => list.reduce<FiguresTotals>((sum, { day: _day, ...figures }) => add(sum, figures), zeroTotals());
  return {
    currency: input.currency,
    // A counter of ADDs never goes below zero in truth; a stray negative (a table restored) shows as none.
    players: Math.max(0, input.counts.players),
    from,
    to,
    totals: total(range),
    previous: total(before),
    days: range,
    not_sent: notSent,
  };
}
