/** The console's home figures (functions/console/overview, functions/back-office/figures.ts), over the consumers' records. */
import { describe, expect, test } from '@jest/globals';
import { appDaySk, appPk, rowKeyString, zeroFigures, type DayFigures, type StoredDayRow } from '../../../functions/domain/funnel';
import { consoleRouter } from '../../support/console-router';

type Api = ReturnType<typeof consoleRouter>;
type Overview = {
  currency: string;
  players: number;
  from: string;
  to: string;
  totals: Record<string, unknown>;
  previous: Record<string, unknown>;
  days: { day: string; registrations: number; ftds: number; deposit_count: number; deposits: string; withdrawals: string; ngr: string }[];
};

/** An application's day row as the funnel consumer leaves it. */
function appDay(api: Api, appId: string, day: string, figures: Partial<DayFigures>): void {
  const row: StoredDayRow = { pk: appPk(appId), sk: appDaySk(day), app_id: appId, day, ...zeroFigures(), ...figures, applied: {}, version: 1 };
  api.ledgers.rows.set(rowKeyString(row), row);
}

// The router's clock: 2026-11-21T10:00Z, so the last 7 days are 2026-11-15 to 2026-11-21.
function withFigures(): Api {
  const api = consoleRouter();
  api.profiles.counts.set('app_1', { players: 42, registrations: { '2026-11-20': 3, '2026-11-21': 2, '2026-11-10': 4 } });
  api.profiles.counts.set('app_2', { players: 9_999, registrations: { '2026-11-21': 500 } });
  appDay(api, 'app_1', '2026-11-21', { ftds: 1, deposit_count: 2, deposits: '150.50', withdrawals: '20', bets: '100', wins: '40.25', bonuses: '5' });
  appDay(api, 'app_1', '2026-11-09', { ftds: 2, deposit_count: 2, deposits: '30', bets: '10' });
  appDay(api, 'app_2', '2026-11-21', { ftds: 77, deposits: '1000000' });
  return api;
}

describe('the overview route', () => {
  test('answers the players now and every day of the range, zeros included, with the totals of the range and of as many days before', async () => {
    const api = withFigures();

    const response = await api.call('GET', '/console/api/overview?days=7');

    expect(response.status).toBe(200);
    const overview = response.body as Overview;
    expect(overview).toMatchObject({ currency: 'EUR', players: 42, from: '2026-11-15', to: '2026-11-21' });
    expect(overview.days.map((d) => d.day)).toEqual(['2026-11-15', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21']);
    expect(overview.days[0]).toEqual({ day: '2026-11-15', registrations: 0, ftds: 0, deposit_count: 0, deposits: '0', withdrawals: '0', ngr: '0' });
    expect(overview.days.at(-1)).toEqual({
      day: '2026-11-21',
      registrations: 2,
      ftds: 1,
      deposit_count: 2,
      deposits: '150.5',
      withdrawals: '20',
      ngr: '54.75',
    });
    expect(overview.totals).toEqual({ registrations: 5, ftds: 1, deposit_count: 2, deposits: '150.5', withdrawals: '20', ngr: '54.75' });
    expect(overview.previous).toEqual({ registrations: 4, ftds: 2, deposit_count: 2, deposits: '30', withdrawals: '0', ngr: '10' });
  });

  test('reads one range of the funnel and one of the figures, whatever the number of days', async () => {
    const api = withFigures();

    await api.call('GET', '/console/api/overview');

    expect(api.ledgers.calls).toEqual([{ op: 'appDays', keys: ['app#app_1\u0000d#2026-09-23', 'app#app_1\u0000d#2026-11-21'] }]);
  });

  test('takes 30 days when not told, and refuses a number of days outside 1 to 366 with 400', async () => {
    const api = withFigures();

    const plain = await api.call('GET', '/console/api/overview');
    const refused = await Promise.all(['0', '367', '7.5', 'x'].map((days) => api.call('GET', `/console/api/overview?days=${days}`)));

    expect((plain.body as Overview).days).toHaveLength(30);
    expect(refused.map((r) => r.status)).toEqual([400, 400, 400, 400]);
  });

  test('a viewer may read it; without a session it is 401', async () => {
    const api = withFigures();

    const viewer = await api.call('GET', '/console/api/overview', { as: await api.signIn('viewer') });
    const nobody = await api.call('GET', '/console/api/overview', { as: null });

    expect([viewer.status, nobody.status]).toEqual([200, 401]);
  });
});
