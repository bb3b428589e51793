/**
 * The back office's player operations over HTTP on the local stack, signed in
 * through /enterprises/sign_in and /redirect as a browser is.
 */
import { commandLineActor } from '../../functions/domain/audit';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { consoleRequest, consoleSignIn, type ConsoleSession } from '../support/console';
import { request } from '../support/http';
import { waitFor } from '../support/local-process';
import { adminInProcess } from '../support/admin-in-process';
import { testStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
let ours: { appId: string; serverKey: string };
let theirs: { appId: string; serverKey: string };
let session: ConsoleSession;

async function newApplication(baseUrl: string) {
  const office = localBackOffice(localClients(stack.endpoints).document);
  const app = await createApp(office, { name: `console ${randomUUID()}`, portalOrigin: baseUrl });
  return { appId: app.app_id, serverKey: (await issueKey(office, app.app_id, commandLineActor, 'server')).key };
}

const at = (second: number) => new Date(Date.UTC(2026, 10, 1, 0, 0, second)).toISOString();

async function ingest(app: { appId: string; serverKey: string }, path: '/profiles' | '/events', records: Record<string, unknown>[]) {
  const response = await request(stack.baseUrl, 'POST', path, {
    key: app.serverKey,
    body: records.map((r) => ({ app_id: app.appId, urm_date_time: at(0), ...r })),
  });
  expect(response.body.FailedRecordCount).toBe(0);
}

const api = (method: 'GET' | 'POST', path: string, body?: unknown, as: ConsoleSession | null = session) =>
  consoleRequest(stack.baseUrl, as, method, path, body);

const admin = (...args: string[]) => adminInProcess(stack.dataDir, ...args);

/** Reads until `check` holds (the stream applies within about a second), at most 15 s unless told. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, ms = 15_000): Promise<T> {
  let last!: T;
  await waitFor(
    async () => {
      last = await read();
      return check(last);
    },
    'the console to show the change',
    ms,
  );
  return last;
}

beforeAll(async () => {
  stack = await testStack();
  ours = await newApplication(stack.baseUrl);
  theirs = await newApplication(stack.baseUrl);
  session = await consoleSignIn(stack.baseUrl, ours);
  await ingest(ours, '/profiles', [
    { profile_id: 'player-42', vip: true, level: 3, name: 'Ada' },
    { profile_id: 'player-420', vip: false },
    { profile_id: 'player-5' },
  ]);
  await ingest(theirs, '/profiles', [{ profile_id: 'player-43', secret: 'theirs' }]);
  await ingest(ours, '/events', [
    { profile_id: 'player-42', event: 'deposit', amount: 10, urm_date_time: at(1) },
    { profile_id: 'player-42', event: 'login', urm_date_time: at(2) },
  ]);
  await eventually(
    () => api('GET', '/console/api/players/player-42/timeline'),
    (r) => r.status === 200 && r.body.events.length === 2,
  );
  // The three profiles reach the list through the stream, each on its own shard.
  await eventually(
    () => api('GET', '/console/api/players?prefix=player-'),
    (r) => r.body.players?.length === 3,
  );
}, 60_000);

describe('finding players', () => {
  test("pages through the application's players in profile id order, and never another application's", async () => {
    const first = await api('GET', '/console/api/players?limit=2');
    const second = await api('GET', `/console/api/players?limit=2&cursor=${first.body.next_cursor}`);

    expect(first.status).toBe(200);
    expect([...first.body.players, ...second.body.players].map((p: { profile_id: string }) => p.profile_id)).toEqual(['player-42', 'player-420', 'player-5']);
  });

  test('finds by profile_id prefix, the exact id first', async () => {
    const found = await api('GET', '/console/api/players?prefix=player-42');

    expect(found.body.players.map((p: { profile_id: string }) => p.profile_id)).toEqual(['player-42', 'player-420']);
  });

  test("another application's player is not found by guessing its id", async () => {
    const [player, timeline, change] = [
      await api('GET', '/console/api/players/player-43'),
      await api('GET', '/console/api/players/player-43/timeline'),
      await api('POST', '/console/api/players/player-43/attributes', { action: 'set', attribute: 'secret', value: 'ours' }),
    ];

    expect([player.status, timeline.status, change.status]).toEqual([404, 404, 404]);
  });

  test('without a session the answer is 401', async () => {
    const response = await api('GET', '/console/api/players', undefined, null);

    expect(response.status).toBe(401);
  });
});

describe('one player', () => {
  test('shows attributes with their types', async () => {
    const response = await api('GET', '/console/api/players/player-42');

    expect(response.status).toBe(200);
    expect(response.body.attributes).toEqual(
      expect.arrayContaining([
        { name: 'vip', type: 'boolean', value: true },
        { name: 'level', type: 'number', value: 3 },
        { name: 'name', type: 'string', value: 'Ada' },
      ]),
    );
    expect(response.body.rejections_complete).toBe(true);
  });

  test('the timeline is newest first and filters by event name', async () => {
    const all = await api('GET', '/console/api/players/player-42/timeline');
    const deposits = await api('GET', '/console/api/players/player-42/timeline?event=deposit');

    expect(all.body.events.map((e: { event: string }) => e.event)).toEqual(['login', 'deposit']);
    expect(deposits.body.events.map((e: { event: string; attributes: unknown }) => [e.event, e.attributes])).toEqual([['deposit', { amount: 10 }]]);
  });
});

describe("a player's money", () => {
  test('shows lifetime deposits, withdrawals, NGR and the first and last deposit, exactly, a re-sent deposit counted once', async () => {
    // An application of its own, its money settings set before its first event (the funnel consumer caches them).
    const casino = await newApplication(stack.baseUrl);
    const operator = await consoleSignIn(stack.baseUrl, casino);
    const settings = await api(
      'POST',
      '/console/api/money',
      { currency: 'EUR', money_events: { Deposit: 'deposit', Cashout: 'withdrawal', Spin: 'bet', Win: 'win', Gift: 'bonus' } },
      operator,
    );
    expect(settings.status).toBe(200);
    await ingest(casino, '/profiles', [{ profile_id: 'whale' }]);
    const money = (event: string, amount: number, urm_date_time: string, fields: Record<string, unknown> = {}) => ({
      profile_id: 'whale',
      event,
      amount,
      currency: 'EUR',
      urm_date_time,
      ...fields,
    });
    const firstDeposit = money('Deposit', 100.1, '2026-11-01T10:00:00Z', { urm_insert_id: 'dep-1' });
    const before = await eventually(
      () => api('GET', '/console/api/players/whale', undefined, operator),
      (r) => r.status === 200,
    );

    await ingest(casino, '/events', [
      firstDeposit,
      money('Deposit', 50, '2026-11-03T09:30:00Z', { currency: 'USD', exchange_rate: 0.9 }),
      money('Cashout', 20.05, '2026-11-04T12:00:00Z'),
      money('Win', 12.5, '2026-11-02T12:00:00Z'),
      money('Gift', 5, '2026-11-02T12:00:00Z'),
    ]);
    // The same deposit again (its insert id), then a spin: the spin counted means the re-sent deposit was looked at before it.
    await ingest(casino, '/events', [firstDeposit, money('Spin', 30, '2026-11-02T11:00:00Z')]);
    const after = await eventually(
      () => api('GET', '/console/api/players/whale', undefined, operator),
      (r) => r.status === 200 && r.body.money.ngr === '12.5',
    );

    expect(before.body.money).toEqual({
      currency: 'EUR',
      deposits: '0',
      withdrawals: '0',
      ngr: '0',
      deposit_count: 0,
      first_deposit: null,
      last_deposit: null,
    });
    expect(after.body.money).toEqual({
      currency: 'EUR',
      deposits: '145.1',
      withdrawals: '20.05',
      ngr: '12.5',
      deposit_count: 2,
      first_deposit: { day: '2026-11-01', amount: '100.1' },
      last_deposit: { day: '2026-11-03', amount: '45' },
    });
  });
});

describe('acting on a player', () => {
  test('a set goes through the stream once, and lands on the timeline with who did it', async () => {
    const change = { action: 'set', attribute: 'tier', value: 'gold', action_id: randomUUID() };

    const first = await api('POST', '/console/api/players/player-5/attributes', change);
    const again = await api('POST', '/console/api/players/player-5/attributes', change);
    // A later change of the same player: once it shows, the stream has applied everything before it.
    const later = await api('POST', '/console/api/players/player-5/attributes', { action: 'set', attribute: 'checked', value: 1 });

    expect([first.status, again.status, later.status]).toEqual([200, 200, 200]);
    const actions = await eventually(
      () => api('GET', '/console/api/players/player-5/timeline?event=urm_back_office_action'),
      (r) => r.body.events.length >= 2,
    );
    expect(actions.body.events.map((e: { attributes: unknown }) => e.attributes)).toEqual([
      { action: 'set_attribute', attribute: 'checked', value: 1, user_id: session.userId, user_email: expect.any(String) },
      { action: 'set_attribute', attribute: 'tier', value: 'gold', user_id: session.userId, user_email: expect.any(String) },
    ]);
    const player = await api('GET', '/console/api/players/player-5');
    expect(player.body.attributes).toContainEqual({ name: 'tier', type: 'string', value: 'gold' });
  });

  test('an unset makes the attribute null', async () => {
    const response = await api('POST', '/console/api/players/player-420/attributes', { action: 'unset', attribute: 'vip' });

    expect(response.status).toBe(200);
    const player = await eventually(
      () => api('GET', '/console/api/players/player-420'),
      (r) => r.body.attributes.some((a: { name: string; value: unknown }) => a.name === 'vip' && a.value === null),
    );
    expect(player.body.attributes).toContainEqual({ name: 'vip', type: 'null', value: null });
  });

  test('a state-changing call without the CSRF token is refused', async () => {
    const response = await api(
      'POST',
      '/console/api/players/player-42/attributes',
      { action: 'set', attribute: 'vip', value: false },
      { ...session, csrf: 'wrong' },
    );

    expect(response.status).toBe(403);
  });

  test('a system attribute cannot be set from the console', async () => {
    const response = await api('POST', '/console/api/players/player-42/attributes', { action: 'set', attribute: 'urm_aff_id', value: 'aff_1' });

    expect(response.status).toBe(400);
  });
});

describe('the player 360', () => {
  let casino: { appId: string; serverKey: string };
  let operator: ConsoleSession;
  const day = (d: number, hour = 12) => new Date(Date.UTC(2026, 10, d, hour)).toISOString();
  const timeline = (query: string) => api('GET', `/console/api/players/ada/timeline?${query}`, undefined, operator);
  const events = (answer: { body: { events: { event: string; urm_date_time: string }[] } }) =>
    answer.body.events.map((e) => `${e.event}@${e.urm_date_time.slice(8, 10)}`);

  beforeAll(async () => {
    // An application of its own, its money settings set before its first event (the funnel consumer caches them).
    casino = await newApplication(stack.baseUrl);
    operator = await consoleSignIn(stack.baseUrl, casino);
    expect((await api('POST', '/console/api/money', { currency: 'EUR', money_events: { Deposit: 'deposit', Cashout: 'withdrawal' } }, operator)).status).toBe(
      200,
    );
    await ingest(casino, '/profiles', [{ profile_id: 'ada', first_name: 'Ada', last_name: 'Lovelace' }]);
    await ingest(casino, '/events', [
      { profile_id: 'ada', event: 'Register', urm_date_time: day(1) },
      { profile_id: 'ada', event: 'Login', urm_date_time: day(2) },
      { profile_id: 'ada', event: 'Deposit', amount: 25, currency: 'EUR', method: 'card', urm_date_time: day(3) },
      { profile_id: 'ada', event: 'Login', urm_date_time: day(4) },
      { profile_id: 'ada', event: 'Cashout', amount: 10, currency: 'EUR', urm_date_time: day(5) },
      { profile_id: 'ada', event: 'spin', urm_date_time: day(6) },
    ]);
    await eventually(
      () => timeline(''),
      (r) => r.status === 200 && r.body.events.length === 6,
    );
  });

  test("the player's answer has its last login, last event, first event and the newest event names", async () => {
    const player = await api('GET', '/console/api/players/ada', undefined, operator);

    expect(player.status).toBe(200);
    expect(player.body.activity).toEqual({
      last_event: { event: 'spin', at: day(6) },
      last_login: { at: day(4) },
      login_searched_to: null,
      first_event_at: day(1),
      event_names: ['Cashout', 'Deposit', 'Login', 'Register', 'spin'],
    });
    expect(player.body.attribution).toBeNull();
  });

  test('the timeline filters by name and by dates on the server, and pages on within them', async () => {
    const logins = await timeline('name=Login');
    const middle = await timeline(`from=${day(2, 0)}&to=${day(5, 0)}`);
    const firstPage = await timeline(`from=${day(2, 0)}&to=${day(5, 0)}&limit=2`);
    const secondPage = await timeline(`from=${day(2, 0)}&to=${day(5, 0)}&limit=2&cursor=${firstPage.body.next_cursor}`);
    const both = await timeline(`name=Login&from=${day(3, 0)}`);

    expect(events(logins)).toEqual(['Login@04', 'Login@02']);
    expect(events(middle)).toEqual(['Login@04', 'Deposit@03', 'Login@02']);
    expect([...events(firstPage), ...events(secondPage)]).toEqual(['Login@04', 'Deposit@03', 'Login@02']);
    expect(secondPage.body.next_cursor).toBeNull();
    expect(events(both)).toEqual(['Login@04']);
  });

  test('money events carry their kind and amount as sent, as the funnel reads them', async () => {
    const money = await timeline(`from=${day(3, 0)}&to=${day(6, 0)}`);

    expect(money.body.events.map((e: { event: string; money?: unknown }) => [e.event, e.money ?? null])).toEqual([
      ['Cashout', { kind: 'withdrawal', amount: '10', currency: 'EUR' }],
      ['Login', null],
      ['Deposit', { kind: 'deposit', amount: '25', currency: 'EUR' }],
    ]);
  });

  test.each([
    ['from=yesterday', /^from must be an ISO 8601 date-time/],
    ['to=2026-11-01', /^to must be an ISO 8601 date-time/],
    [`from=${day(5)}&to=${day(2)}`, /^from must be before to$/],
    ['name=', /^name /],
    ['name=Login&event=spin', /^name and event are the same filter/],
    ['colour=red', /colour/],
  ])('refuses %s with a 400 naming the field', async (query, message) => {
    const refused = await timeline(query);

    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.stringMatching(message)]);
  });
});

describe('searching players by id, email, name or phone', () => {
  test('finds Liam Borg by first name, full name in capitals, last name, email prefix and phone digits; never another application; not once deleted', async () => {
    const liam = { first_name: 'Liam', last_name: 'Borg', email: 'liam.borg@example.com', phone: '+356 7912 3456' };
    await ingest(ours, '/profiles', [{ profile_id: 'p-liam', ...liam }]);
    await ingest(theirs, '/profiles', [{ profile_id: 'p-liam-theirs', ...liam }]);
    const found = (q: string) => api('GET', `/console/api/players?q=${encodeURIComponent(q)}`);
    const ids = (response: { body: { players: { profile_id: string }[] } }) => response.body.players.map((p) => p.profile_id);
    await eventually(
      () => found('liam'),
      (r) => r.status === 200 && ids(r).includes('p-liam'),
    );

    for (const q of ['liam', 'LIAM B', 'borg', 'liam.borg@exa', '3567912', '+356 7912']) {
      const response = await found(q);
      expect({ q, status: response.status, ids: ids(response) }).toEqual({ q, status: 200, ids: ['p-liam'] });
    }
    const [row] = (await found('liam')).body.players;
    expect(row).toMatchObject({ name: 'Liam Borg', email: 'liam.borg@example.com', matched: { by: 'first_name', exact: true }, money: { deposits: '0' } });

    await ingest(ours, '/profiles', [{ profile_id: 'p-liam', urm_delete_profile: 'profile_id', urm_date_time: at(5) }]);
    await eventually(
      () => found('liam'),
      (r) => r.status === 200 && r.body.players.length === 0,
    );
    expect(ids(await found('3567912'))).toEqual([]);
  });

  test('the command line finds a player by name (`players search <app> <query>`) and reindexes the players', async () => {
    await ingest(ours, '/profiles', [{ profile_id: 'p-zed', first_name: 'Zed', last_name: 'Camilleri' }]);
    await eventually(
      () => api('GET', '/console/api/players?q=zed'),
      (r) => r.body.players?.length === 1,
    );

    const printed = await admin('players', 'search', ours.appId, 'ZED CAM');
    const none = await admin('players', 'search', ours.appId, 'nobody-at-all');

    expect(printed).toMatch(/p-zed\s+Zed Camilleri/);
    expect(none).toBe(`No player of ${ours.appId} matches "nobody-at-all"`);
    // Reindexing rewrites what the consumer wrote: the search still finds the same.
    expect(await admin('players', 'reindex', ours.appId)).toMatch(new RegExp(`^Reindexed \\d+ players of ${ours.appId}`));
    expect((await api('GET', '/console/api/players?q=zed')).body.players.map((p: { profile_id: string }) => p.profile_id)).toEqual(['p-zed']);
  });

  test('the searchable attributes, named on the command line, find the profiles applied after; the console refuses six, naming the field', async () => {
    const fresh = await newApplication(stack.baseUrl);
    await admin('app', 'update', fresh.appId, '--search-attributes', 'nickname, email');
    const freshSession = await consoleSignIn(stack.baseUrl, fresh);
    await ingest(fresh, '/profiles', [{ profile_id: 'p-ace', nickname: 'Ace', first_name: 'Ada' }]);
    const search = (q: string) => api('GET', `/console/api/players?q=${q}`, undefined, freshSession);

    const found = await eventually(
      () => search('ACE'),
      (r) => r.body.players?.length === 1,
    );
    const byName = await search('ada');
    const setting = await api('GET', '/console/api/app', undefined, freshSession);
    const six = await api('POST', '/console/api/app', { search_attributes: ['a', 'b', 'c', 'd', 'e', 'f'] }, freshSession);

    expect(found.body.players[0]).toMatchObject({ profile_id: 'p-ace', matched: { by: 'nickname', exact: true } });
    expect(byName.body.players).toEqual([]);
    expect(setting.body.app.search_attributes).toEqual(['nickname', 'email']);
    expect(six.status).toBe(400);
    expect(six.body.errors.join()).toMatch(/search_attributes/);
  });

  test('an empty search lists the players as before, and a search of over 200 characters is refused', async () => {
    const listed = await api('GET', '/console/api/players?q=');
    const long = await api('GET', `/console/api/players?q=${'x'.repeat(201)}`);

    expect(listed.status).toBe(200);
    expect(listed.body.players.length).toBeGreaterThan(0);
    expect(long.status).toBe(400);
  });
});
