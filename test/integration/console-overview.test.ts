/**
 * The application's figures over HTTP on the local stack: profiles and money
 * events sent with the server key as an integrator sends them, read back from
 * GET /console/api/overview (and the players list's total, and the admin
 * command line's `app figures`) once the consumers have applied them.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, jest, test } from '@jest/globals';
import { adminProgram } from '../../bin/admin';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { commandLineActor } from '../../functions/domain/audit';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { consoleRequest, consoleSignIn, type ConsoleSession } from '../support/console';
import { request } from '../support/http';
import { waitFor } from '../support/local-process';
import { testStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
let casino: { appId: string; serverKey: string };
let operator: ConsoleSession;

type FiguresDay = { day: string; registrations: number; ftds: number; deposit_count: number; deposits: string; withdrawals: string; ngr: string };
const zero = (day: string): FiguresDay => ({ day, registrations: 0, ftds: 0, deposit_count: 0, deposits: '0', withdrawals: '0', ngr: '0' });

const utcDay = (date: Date) => date.toISOString().slice(0, 10);
const daysAgo = (n: number) => utcDay(new Date(Date.now() - n * 86_400_000));

async function ingest(path: '/profiles' | '/events', records: Record<string, unknown>[]) {
  const response = await request(stack.baseUrl, 'POST', path, { key: casino.serverKey, body: records.map((r) => ({ app_id: casino.appId, ...r })) });
  expect(response.body.FailedRecordCount).toBe(0);
}

const overview = (query = '?days=7') => consoleRequest(stack.baseUrl, operator, 'GET', `/console/api/overview${query}`);

/** Reads until `check` holds (the stream applies within about a second), at most 20 s. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  let last!: T;
  await waitFor(
    async () => {
      last = await read();
      return check(last);
    },
    'the figures to show what was sent',
    20_000,
  );
  return last;
}

/** `npm run admin -- --json …` against the test stack, in this process (what it prints is its answer). */
async function admin(...args: string[]): Promise<any> {
  const printed = jest.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await adminProgram()
      .exitOverride()
      .parseAsync(['--data-dir', stack.dataDir, '--json', ...args], { from: 'user' });
    return JSON.parse(String(printed.mock.calls.at(-1)?.[0]));
  } finally {
    printed.mockRestore();
  }
}

// The money's day: two days ago, inside a 7-day range whenever the test runs.
const moneyDay = daysAgo(2);
// A profile counts on the day it is received: today, or tomorrow if the test runs over midnight (UTC).
const firstDay = daysAgo(0);

beforeAll(async () => {
  stack = await testStack();
  const office = localBackOffice(localClients(stack.endpoints).document);
  const app = await createApp(office, { name: `figures ${randomUUID()}`, portalOrigin: stack.baseUrl });
  casino = { appId: app.app_id, serverKey: (await issueKey(office, app.app_id, commandLineActor, 'server')).key };
  operator = await consoleSignIn(stack.baseUrl, casino);
  // Before the first event: the funnel consumer caches an application's settings.
  const settings = await consoleRequest(stack.baseUrl, operator, 'POST', '/console/api/money', {
    currency: 'EUR',
    money_events: { Deposit: 'deposit', Cashout: 'withdrawal', Spin: 'bet', Win: 'win' },
  });
  expect(settings.status).toBe(200);
}, 60_000);

describe("the application's figures", () => {
  test('a registration, a first deposit and a withdrawal show on their days; a re-sent deposit and a profile update count nothing more', async () => {
    const money = (profileId: string, event: string, amount: number, insertId: string) => ({
      profile_id: profileId,
      event,
      amount,
      currency: 'EUR',
      urm_date_time: `${moneyDay}T12:00:00Z`,
      urm_insert_id: insertId,
    });
    await ingest('/profiles', [
      { profile_id: 'ada', name: 'Ada', urm_date_time: new Date().toISOString() },
      { profile_id: 'bob', urm_date_time: new Date().toISOString() },
    ]);
    await ingest('/events', [
      money('ada', 'Deposit', 100.1, 'ada-dep-1'),
      money('ada', 'Cashout', 20.05, 'ada-out-1'),
      money('bob', 'Spin', 30, 'bob-spin-1'),
      money('bob', 'Win', 12.5, 'bob-win-1'),
    ]);
    // The same deposit again, an update of ada, then a later deposit: it counted means the re-sent one was looked at first.
    await ingest('/events', [money('ada', 'Deposit', 100.1, 'ada-dep-1')]);
    await ingest('/profiles', [{ profile_id: 'ada', level: 2, urm_date_time: new Date().toISOString() }]);
    await ingest('/events', [money('ada', 'Deposit', 5, 'ada-dep-2')]);

    const figures = await eventually(
      () => overview(),
      (r) => r.status === 200 && r.body.totals.deposit_count === 2 && r.body.totals.registrations === 2,
    );

    const days = figures.body.days as FiguresDay[];
    expect(days).toHaveLength(7);
    expect(figures.body.players).toBe(2);
    expect(figures.body.totals).toEqual({ registrations: 2, ftds: 1, deposit_count: 2, deposits: '105.1', withdrawals: '20.05', ngr: '17.5' });
    expect(days.find((d) => d.day === moneyDay)).toEqual({
      ...zero(moneyDay),
      ftds: 1,
      deposit_count: 2,
      deposits: '105.1',
      withdrawals: '20.05',
      ngr: '17.5',
    });
    // The registrations are on the day they were received (the test's first day, or the next if it ran over midnight).
    const registered = days.filter((d) => d.registrations > 0);
    expect(registered.every((d) => [firstDay, daysAgo(0)].includes(d.day) && d.ftds === 0 && d.deposits === '0')).toBe(true);
    const others = days.filter((d) => d.day !== moneyDay && d.registrations === 0);
    expect(others).toEqual(others.map((d) => zero(d.day)));
  });

  test('a deleted player leaves the total, on the overview and on the players list, and its registration stays on its day', async () => {
    await ingest('/profiles', [{ profile_id: 'cat', urm_date_time: new Date().toISOString() }]);
    await eventually(
      () => overview(),
      (r) => r.body.players === 3,
    );

    await ingest('/profiles', [{ profile_id: 'cat', urm_delete_profile: 'profile_id', urm_date_time: new Date().toISOString() }]);
    const after = await eventually(
      () => overview(),
      (r) => r.body.players === 2,
    );
    const list = await consoleRequest(stack.baseUrl, operator, 'GET', '/console/api/players');

    expect(after.body.totals.registrations).toBe(3);
    expect(list.body.total).toBe(2);
  });

  test('the admin command line prints the same figures', async () => {
    const [http, printed] = [(await overview('?days=14')).body, await admin('apps', 'figures', casino.appId, '--days', '14')];

    expect(printed).toEqual(http);
  });

  test('a viewer reads the figures; without a session the answer is 401', async () => {
    const viewer = await consoleSignIn(stack.baseUrl, casino, 'viewer');

    const [read, refused] = [
      await consoleRequest(stack.baseUrl, viewer, 'GET', '/console/api/overview'),
      await consoleRequest(stack.baseUrl, null, 'GET', '/console/api/overview'),
    ];

    expect([read.status, refused.status]).toEqual([200, 401]);
    expect(read.body.days).toHaveLength(30);
  });
});
