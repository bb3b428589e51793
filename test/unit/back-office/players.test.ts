import { afterEach, describe, expect, jest, test } from '@jest/globals';
import type { App } from '../../../functions/domain/apps';
import {
  backOfficeActionEvent,
  changePlayerAttribute,
  getPlayer,
  listPlayers,
  playerGate,
  playerTimeline,
  reindexPlayers,
} from '../../../functions/back-office/players';
import { NotFound, ValidationError } from '../../../functions/domain/errors';
import type { RecordWriter, StreamEntry } from '../../../functions/domain/ingest';
import { decodeEnvelope, partitionKey } from '../../../functions/domain/stream-record';
import type { ProfileRejections, Rejection, TimelineEntry } from '../../../functions/domain/timeline';
import { countPlayer, type StoredLedger } from '../../../functions/domain/funnel';
import type { StreamItem } from '../../../functions/stream/kinesis-batch';
import { MemoryAppStore } from '../../support/affiliates';
import { MemoryAuditLog } from '../../support/enterprise';
import { MemoryFunnelStore } from '../../support/funnel-store';
import { MemoryPlayerSearch } from '../../support/player-search';
import { defaultSearchAttributes, termsDiff, termsOf } from '../../../functions/domain/player-search';
import { MemoryProfiles, MemoryTimeline, storedProfile } from '../../support/players';
import { MemorySentCounts } from '../../support/send-gate';

const profile = storedProfile;

const entry = (pk: string, n: number, event: string, attrs: Record<string, unknown> = {}): TimelineEntry => {
  const time = new Date(Date.UTC(2026, 10, 1, 0, 0, n)).toISOString();
  return {
    pk,
    insert_id: `id-${n}`,
    ts: `${time}#id-${n}`,
    event,
    urm_date_time: time,
    received_at: time,
    shard: 's1',
    seq: String(n),
    attrs: JSON.stringify(attrs),
  };
};

class CapturingWriter implements RecordWriter {
  readonly written: StreamEntry[] = [];
  async write(entries: StreamEntry[]) {
    this.written.push(...entries);
    return { EncryptionType: 'NONE', FailedRecordCount: 0, Records: entries.map((_, i) => ({ SequenceNumber: String(i), ShardId: 's1' })) };
  }
}

const noRejections = { listForProfile: async (): Promise<ProfileRejections> => ({ rejections: [], complete: true }) };
const ada = { appId: 'app_1', userId: 'usr_1', email: 'ada@example.com' };
const apps = new MemoryAppStore([{ app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00.000Z', currency: 'GBP' }]);

const listPorts = (profiles: MemoryProfiles, search = new MemoryPlayerSearch(), ledgers = new MemoryFunnelStore()) => ({
  directory: profiles,
  profiles,
  apps,
  ledgers,
  search,
  playerCounts: profiles,
});

describe('listing players', () => {
  test("lists only the application's players, in profile id order, paging with a cursor", async () => {
    const profiles = new MemoryProfiles(profile('app_1', 'p-2'), profile('app_1', 'p-1'), profile('app_1', 'p-3'), profile('app_2', 'p-0'));
    const list = listPlayers(listPorts(profiles));

    const first = await list(ada, { limit: '2' });
    const second = await list(ada, { limit: '2', cursor: first.next_cursor! });

    expect(first.players.map((p) => p.profile_id)).toEqual(['p-1', 'p-2']);
    expect(second.players.map((p) => p.profile_id)).toEqual(['p-3']);
    expect(second.next_cursor).toBeNull();
  });

  test('finds players by prefix, the exact id first', async () => {
    const profiles = new MemoryProfiles(profile('app_1', 'player-42'), profile('app_1', 'player-420'), profile('app_1', 'player-5'));

    const found = await listPlayers(listPorts(profiles))(ada, { prefix: 'player-42' });

    expect(found.players.map((p) => p.profile_id)).toEqual(['player-42', 'player-420']);
  });

  test('leaves out deleted players', async () => {
    const profiles = new MemoryProfiles(profile('app_1', 'gone', {}, { exists: false }), profile('app_1', 'here'));

    const found = await listPlayers(listPorts(profiles))(ada, {});

    expect(found.players.map((p) => p.profile_id)).toEqual(['here']);
  });

  test("answers the application's players counter as its total, whatever page or prefix", async () => {
    const profiles = new MemoryProfiles(profile('app_1', 'p-1'), profile('app_1', 'p-2'));
    profiles.counts.set('app_1', { players: 1_234, registrations: {} });
    profiles.counts.set('app_2', { players: 7, registrations: {} });

    const found = await listPlayers(listPorts(profiles))(ada, { prefix: 'p-2', limit: '1' });

    expect(found.total).toBe(1_234);
  });

  test('refuses a cursor it did not give', async () => {
    const profiles = new MemoryProfiles();

    await expect(listPlayers(listPorts(profiles))(ada, { cursor: 'not-a-cursor' })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('searching players', () => {
  const liam = { first_name: 'Liam', last_name: 'Borg', email: 'liam.borg@example.com', phone: '+356 7912 3456', vip: true };
  const lia = { first_name: 'Lia', last_name: 'Camilleri', email: 'lia@example.com' };
  const williams = { first_name: 'Will', last_name: 'Liamson', email: 'will@example.com' };

  /** The profiles, and the index as the profile consumer leaves it for them. */
  async function arranged(players: Record<string, Record<string, unknown>>, searchable: readonly string[] = defaultSearchAttributes) {
    const profiles = new MemoryProfiles();
    const search = new MemoryPlayerSearch();
    for (const [id, attrs] of Object.entries(players)) {
      profiles.add(profile('app_1', id, attrs));
      await search.write('app_1', id, termsDiff(new Map(), termsOf(id, attrs as never, searchable)));
    }
    return { profiles, search, find: (q: string) => listPlayers(listPorts(profiles, search))(ada, { q }) };
  }
  const ids = (list: { players: { profile_id: string }[] }) => list.players.map((p) => p.profile_id);

  test('finds a player by first name, full name, last name, email and phone, in any case, whole or by its beginning', async () => {
    const { find } = await arranged({ 'p-liam': liam, 'p-lia': lia });

    expect(ids(await find('liam'))).toEqual(['p-liam']);
    expect(ids(await find('LIAM B'))).toEqual(['p-liam']);
    expect(ids(await find('borg'))).toEqual(['p-liam']);
    expect(ids(await find('Liam.Borg@'))).toEqual(['p-liam']);
    expect(ids(await find('3567912'))).toEqual(['p-liam']);
    expect(ids(await find('+356 7912'))).toEqual(['p-liam']);
    expect(ids(await find('nobody'))).toEqual([]);
  });

  test('answers each player once, exact matches before prefixes, with what matched', async () => {
    const { find } = await arranged({ 'p-liam': liam, 'p-lia': lia, 'p-will': williams });

    const found = await find('lia');

    expect(found.players.map((p) => [p.profile_id, p.matched])).toEqual([
      ['p-lia', { by: 'first_name', exact: true }],
      ['p-liam', { by: 'email', exact: false }],
      ['p-will', { by: 'last_name', exact: false }],
    ]);
    expect(found.next_cursor).toBeNull();
  });

  test("answers each player's name, email, attributes and money, the page's ledgers in one read", async () => {
    const { profiles, search } = await arranged({ 'p-liam': liam });
    const ledgers = new MemoryFunnelStore();

    const [row] = (await listPlayers(listPorts(profiles, search, ledgers))(ada, { q: 'liam' })).players;

    expect(row).toMatchObject({ profile_id: 'p-liam', name: 'Liam Borg', email: 'liam.borg@example.com', attributes: { ...liam } });
    expect(row!.money).toMatchObject({ currency: 'GBP', deposits: '0', deposit_count: 0 });
    expect(ledgers.calls).toEqual([{ op: 'ledgers', keys: ['p#app_1#p-liam\u0000ledger'] }]);
  });

  test('shows no player for a term its profile no longer has (a write whose profile write never took), nor a deleted one', async () => {
    const { profiles, find } = await arranged({ 'p-liam': liam, 'p-gone': { first_name: 'Liam' } });
    profiles.add(profile('app_1', 'p-liam', { ...liam, first_name: 'William' }), profile('app_1', 'p-gone', {}, { exists: false }));

    expect(ids(await find('liam'))).toEqual([]);
  });

  test('finds by id players the index does not hold yet (applied before it was), as the id was sent', async () => {
    const profiles = new MemoryProfiles(profile('app_1', 'Player-42'), profile('app_1', 'player-420'));

    const found = await listPlayers(listPorts(profiles))(ada, { q: 'Player-4' });

    expect(ids(found)).toEqual(['Player-42']);
  });

  test('answers at most 50 players', async () => {
    const many = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`p-${String(i).padStart(2, '0')}`, { first_name: `Liam${i}` }]));
    const { find } = await arranged(many);

    expect((await find('liam')).players).toHaveLength(50);
  });

  test("searches the application's own searchable attributes only", async () => {
    const { profiles, search } = await arranged({ 'p-liam': { ...liam, nickname: 'Ace' } }, ['nickname']);
    const own = new MemoryAppStore([{ app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00.000Z', search_attributes: ['nickname'] }]);
    const find = (q: string) => listPlayers({ ...listPorts(profiles, search), apps: own })(ada, { q });

    expect(ids(await find('ace'))).toEqual(['p-liam']);
    expect(ids(await find('borg'))).toEqual([]);
  });

  test('reindexing gives players applied before the setting changed its new terms, takes the old back, and resumes from its cursor', async () => {
    const { profiles, search } = await arranged({ 'p-a': { ...liam, nickname: 'Ace' }, 'p-b': { nickname: 'Bee' }, 'p-c': { nickname: 'Cee' } });
    const changed = new MemoryAppStore([
      {
        app_id: 'app_1',
        name: 'Casino',
        created_at: '2026-01-01T00:00:00.000Z',
        search_attributes: ['nickname'],
        search_attributes_previous: [...defaultSearchAttributes],
        search_attributes_changed_at: '2026-11-21T00:00:00.000Z',
      },
    ]);
    const reindex = reindexPlayers({ directory: profiles, profiles, apps: changed, search });

    const first = await reindex('app_1', { limit: 2 });
    const rest = await reindex('app_1', { limit: 2, cursor: first.next_cursor! });

    expect([first.written, rest.written, rest.next_cursor]).toEqual([2, 1, null]);
    expect(search.termsOf('app_1', 'p-a')).toEqual(['a.nickname ace', 'urm.id p-a']);
    expect(search.termsOf('app_1', 'p-c')).toEqual(['a.nickname cee', 'urm.id p-c']);
  });

  test('refuses a search with a cursor', async () => {
    const { profiles, search } = await arranged({});

    await expect(listPlayers(listPorts(profiles, search))(ada, { q: 'liam', cursor: 'x' })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('one player', () => {
  const rejection: Rejection = {
    app_id: 'app_1',
    profile_id: 'p-1',
    urm_insert_id: 'r-1',
    kind: 'profile',
    shard: 's1',
    seq: '9',
    reason: 'urm_add needs a number',
    record: '{}',
    record_truncated: false,
    received_at: '2026-11-20T09:00:00.000Z',
    rejected_at: '2026-11-20T09:00:01.000Z',
  };

  test('shows attributes with their types, push devices, the affiliate attribution and rejections', async () => {
    const subscription = JSON.stringify({ endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: { p256dh: 'k', auth: 'a' } });
    const profiles = new MemoryProfiles(
      profile('app_1', 'p-1', {
        vip: true,
        level: 3,
        name: 'Ada',
        tags: ['a'],
        gone: null,
        urm_web_push_notification_token: [subscription],
        urm_receives_notifications: false,
        urm_aff_id: 'aff_1',
        urm_aff: 'spring',
      }),
    );
    const asked: unknown[] = [];
    const rejections = {
      listForProfile: async (...args: unknown[]) => {
        asked.push(args);
        return { rejections: [rejection], complete: false };
      },
    };

    const view = await getPlayer({
      profiles,
      rejections,
      apps,
      ledgers: new MemoryFunnelStore(),
      timeline: new MemoryTimeline(),
      sentCounts: new MemorySentCounts(),
    })(ada, 'p-1');

    expect(view.attributes.filter((a) => !a.name.startsWith('urm')).map(({ name, type }) => [name, type])).toEqual([
      ['gone', 'null'],
      ['level', 'number'],
      ['name', 'string'],
      ['tags', 'array'],
      ['vip', 'boolean'],
    ]);
    expect(view.push).toEqual({ devices: [{ platform: 'web', service: 'fcm.googleapis.com' }], receives_notifications: false });
    expect(view.affiliate).toEqual({ urm_aff_id: 'aff_1', urm_aff_link_id: null, urm_aff: 'spring' });
    expect(view.rejections).toEqual([
      { urm_insert_id: 'r-1', kind: 'profile', reason: 'urm_add needs a number', received_at: rejection.received_at, rejected_at: rejection.rejected_at },
    ]);
    expect(view.rejections_complete).toBe(false);
    expect(asked).toEqual([['app_1', 'p-1', 500]]);
  });

  test("another application's player is not found", async () => {
    const profiles = new MemoryProfiles(profile('app_2', 'p-1'));

    await expect(
      getPlayer({
        profiles,
        rejections: noRejections,
        apps,
        ledgers: new MemoryFunnelStore(),
        timeline: new MemoryTimeline(),
        sentCounts: new MemorySentCounts(),
      })(ada, 'p-1'),
    ).rejects.toBeInstanceOf(NotFound);
  });
});

describe("a player's money", () => {
  const profiles = new MemoryProfiles(profile('app_1', 'p-1'));
  let n = 0;
  const moneyEvent = (event: string, amount: number, urm_date_time: string): StreamItem => ({
    shardId: 's1',
    sequenceNumber: String(++n),
    envelope: {
      v: 1,
      kind: 'event',
      received_at: urm_date_time,
      record: { app_id: 'app_1', profile_id: 'p-1', urm_insert_id: `m-${n}`, urm_date_time, event, amount, currency: 'GBP' },
    },
  });
  /** The ledger the funnel consumer leaves after counting these events. */
  async function ledgersAfter(items: StreamItem[]): Promise<MemoryFunnelStore> {
    const ledgers = new MemoryFunnelStore();
    const settings = { currency: 'GBP', money_events: { Deposit: 'deposit', Withdrawal: 'withdrawal', Bet: 'bet', Win: 'win', Bonus: 'bonus' } } as const;
    const { ledger } = countPlayer({ stored: undefined, appId: 'app_1', profileId: 'p-1', items, settings, now: new Date('2026-11-21T00:00:00Z') });
    await ledgers.putLedger(ledger!, undefined);
    return ledgers;
  }

  test('shows lifetime deposits, withdrawals, NGR (bets − wins − bonuses), the first and last deposits, in the main currency', async () => {
    const ledgers = await ledgersAfter([
      moneyEvent('Deposit', 100, '2026-11-01T10:00:00Z'),
      moneyEvent('Bet', 80.5, '2026-11-01T11:00:00Z'),
      moneyEvent('Win', 30.25, '2026-11-01T12:00:00Z'),
      moneyEvent('Bonus', 10, '2026-11-02T09:00:00Z'),
      moneyEvent('Deposit', 0.1, '2026-11-03T09:00:00Z'),
      moneyEvent('Withdrawal', 20.05, '2026-11-04T09:00:00Z'),
    ]);

    const view = await getPlayer({ profiles, rejections: noRejections, apps, ledgers, timeline: new MemoryTimeline(), sentCounts: new MemorySentCounts() })(
      ada,
      'p-1',
    );

    expect(view.money).toEqual({
      currency: 'GBP',
      deposits: '100.1',
      withdrawals: '20.05',
      ngr: '40.25',
      deposit_count: 2,
      first_deposit: { day: '2026-11-01', amount: '100' },
      last_deposit: { day: '2026-11-03', amount: '0.1' },
    });
    expect(ledgers.calls.filter((call) => call.op === 'ledger')).toEqual([{ op: 'ledger', keys: ['p#app_1#p-1\u0000ledger'] }]);
  });

  test('a player without money events has zero figures and no deposits', async () => {
    const view = await getPlayer({
      profiles,
      rejections: noRejections,
      apps,
      ledgers: new MemoryFunnelStore(),
      timeline: new MemoryTimeline(),
      sentCounts: new MemorySentCounts(),
    })(ada, 'p-1');

    expect(view.money).toEqual({
      currency: 'GBP',
      deposits: '0',
      withdrawals: '0',
      ngr: '0',
      deposit_count: 0,
      first_deposit: null,
      last_deposit: null,
    });
  });

  test('a ledger written before lifetime figures were kept reads as zero, with the first deposit it remembers', async () => {
    const ledgers = await ledgersAfter([moneyEvent('Deposit', 40, '2026-11-01T10:00:00Z')]);
    const older = ledgers.row('p#app_1#p-1', 'ledger') as StoredLedger;
    delete older.lifetime;
    delete older.last_deposit;
    ledgers.rows.set('p#app_1#p-1\u0000ledger', older);

    const view = await getPlayer({ profiles, rejections: noRejections, apps, ledgers, timeline: new MemoryTimeline(), sentCounts: new MemorySentCounts() })(
      ada,
      'p-1',
    );

    expect(view.money).toMatchObject({ deposits: '0', deposit_count: 0, first_deposit: { day: '2026-11-01', amount: '40' }, last_deposit: null });
  });
});

describe("a player's timeline", () => {
  const pk = partitionKey('app_1', 'p-1');

  test('pages newest first, system events included', async () => {
    const timeline = new MemoryTimeline([entry(pk, 1, 'deposit'), entry(pk, 2, 'urm_email_sent'), entry(pk, 3, 'login')]);
    const read = playerTimeline({ profiles: new MemoryProfiles(profile('app_1', 'p-1')), timeline, apps });

    const first = await read(ada, 'p-1', { limit: '2' });
    const second = await read(ada, 'p-1', { limit: '2', cursor: first.next_cursor! });

    expect(first.events.map((e) => e.event)).toEqual(['login', 'urm_email_sent']);
    expect(second.events.map((e) => e.event)).toEqual(['deposit']);
    expect(second.next_cursor).toBeNull();
  });

  test('filters by event name across reads, within a bounded number of queries', async () => {
    const entries = Array.from({ length: 3000 }, (_, n) => entry(pk, n, n % 1000 === 0 ? 'deposit' : 'spin'));
    const timeline = new MemoryTimeline(entries);
    const read = playerTimeline({ profiles: new MemoryProfiles(profile('app_1', 'p-1')), timeline, apps });

    const page = await read(ada, 'p-1', { event: 'deposit', limit: '10' });

    expect(page.events.map((e) => e.urm_insert_id)).toEqual(['id-2000', 'id-1000']);
    expect(timeline.reads).toBe(4);
    expect(page.next_cursor).not.toBeNull();
  });

  test("another application's player has no timeline here", async () => {
    const timeline = new MemoryTimeline([entry(partitionKey('app_2', 'p-1'), 1, 'deposit')]);

    await expect(playerTimeline({ profiles: new MemoryProfiles(profile('app_2', 'p-1')), timeline, apps })(ada, 'p-1', {})).rejects.toBeInstanceOf(NotFound);
  });
});

describe("a player's timeline filters", () => {
  const pk = partitionKey('app_1', 'p-1');
  const at = (day: number, event: string, attrs: Record<string, unknown> = {}): TimelineEntry => {
    const time = new Date(Date.UTC(2026, 10, day, 12)).toISOString();
    return { ...entry(pk, day, event, attrs), insert_id: `d-${day}`, ts: `${time}#d-${day}`, urm_date_time: time, received_at: time };
  };
  const days = () => new MemoryTimeline(Array.from({ length: 10 }, (_, i) => at(i + 1, i % 2 === 0 ? 'Login' : 'spin')));
  const reader = (timeline: MemoryTimeline) => playerTimeline({ profiles: new MemoryProfiles(profile('app_1', 'p-1')), timeline, apps });

  test('keeps only events from `from` (inclusive) to `to` (exclusive), newest first', async () => {
    const page = await reader(days())(ada, 'p-1', { from: '2026-11-03T12:00:00Z', to: '2026-11-06T12:00:00Z' });

    expect(page.events.map((e) => e.urm_insert_id)).toEqual(['d-5', 'd-4', 'd-3']);
    expect(page.next_cursor).toBeNull();
  });

  test('combines the name with the dates, and pages on with a cursor that keeps to the range', async () => {
    const read = reader(days());
    const query = { name: 'Login', from: '2026-11-02T00:00:00Z', to: '2026-11-10T00:00:00Z', limit: '2' };

    const first = await read(ada, 'p-1', query);
    const second = await read(ada, 'p-1', { ...query, cursor: first.next_cursor! });

    expect(first.events.map((e) => e.urm_insert_id)).toEqual(['d-9', 'd-7']);
    expect(second.events.map((e) => e.urm_insert_id)).toEqual(['d-5', 'd-3']);
    expect(second.next_cursor).toBeNull();
  });

  test('reads from `to` back, not from the newest event', async () => {
    const timeline = days();

    await reader(timeline)(ada, 'p-1', { to: '2026-11-02T00:00:00Z' });

    expect(timeline.reads).toBe(1);
  });

  test('refuses `from` at or after `to`, and name and event that disagree, naming the field', async () => {
    const read = reader(days());

    await expect(read(ada, 'p-1', { from: '2026-11-05T00:00:00Z', to: '2026-11-05T00:00:00Z' })).rejects.toMatchObject({
      errors: ['from must be before to'],
    });
    await expect(read(ada, 'p-1', { name: 'Login', event: 'spin' })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe("money on a player's timeline", () => {
  const pk = partitionKey('app_1', 'p-1');
  const moneyApps = new MemoryAppStore([
    { app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00.000Z', currency: 'EUR', money_events: { Deposit: 'deposit', Cashout: 'withdrawal' } },
  ]);

  test('gives a mapped event its kind and amount as sent (exact), an unmapped or uncountable one none', async () => {
    const timeline = new MemoryTimeline([
      entry(pk, 1, 'Deposit', { amount: 25, currency: 'EUR', method: 'card' }),
      entry(pk, 2, 'Cashout', { amount: 0.1, currency: 'USD', exchange_rate: 0.9 }),
      entry(pk, 3, 'Deposit', { amount: -5, currency: 'EUR' }),
      entry(pk, 4, 'spin', { amount: 1, currency: 'EUR' }),
    ]);

    const page = await playerTimeline({ profiles: new MemoryProfiles(profile('app_1', 'p-1')), timeline, apps: moneyApps })(ada, 'p-1', {});

    expect(page.events.map((e) => [e.event, e.money])).toEqual([
      ['spin', undefined],
      ['Deposit', undefined],
      ['Cashout', { kind: 'withdrawal', amount: '0.1', currency: 'USD' }],
      ['Deposit', { kind: 'deposit', amount: '25', currency: 'EUR' }],
    ]);
  });
});

describe("a player's activity", () => {
  const pk = partitionKey('app_1', 'p-1');
  const read = (timeline: MemoryTimeline) =>
    getPlayer({
      profiles: new MemoryProfiles(profile('app_1', 'p-1')),
      rejections: noRejections,
      apps,
      ledgers: new MemoryFunnelStore(),
      timeline,
      sentCounts: new MemorySentCounts(),
    })(ada, 'p-1');

  test('gives the last event, the last Login among the newest, the first event and the newest names', async () => {
    const timeline = new MemoryTimeline([entry(pk, 1, 'Register'), entry(pk, 2, 'Login'), entry(pk, 3, 'Deposit'), entry(pk, 4, 'spin')]);

    const { activity } = await read(timeline);

    expect(activity).toEqual({
      last_event: { event: 'spin', at: '2026-11-01T00:00:04.000Z' },
      last_login: { at: '2026-11-01T00:00:02.000Z' },
      login_searched_to: null,
      first_event_at: '2026-11-01T00:00:01.000Z',
      event_names: ['Deposit', 'Login', 'Register', 'spin'],
    });
  });

  test('looks for an older Login in bounded reads, and says how far back it looked when it found none', async () => {
    const older = new MemoryTimeline(Array.from({ length: 700 }, (_, n) => entry(pk, n, n === 10 ? 'Login' : 'spin')));
    const none = new MemoryTimeline(Array.from({ length: 2000 }, (_, n) => entry(pk, n, 'spin')));

    const found = await read(older);
    none.reads = 0;
    const missing = await read(none);

    expect(found.activity.last_login).toEqual({ at: entry(pk, 10, 'Login').urm_date_time });
    expect(missing.activity.last_login).toBeNull();
    // 100 newest, then 2 × 500 older: entry 899 is the last read.
    expect(missing.activity.login_searched_to).toBe(entry(pk, 900, 'spin').urm_date_time);
    expect(missing.activity.event_names).toEqual(['spin']);
    // The newest page, the oldest, and two bounded Login reads.
    expect(none.reads).toBe(4);
  });

  test('an empty timeline has no last event, no login and no first event, and says so without a bound', async () => {
    const { activity } = await read(new MemoryTimeline());

    expect(activity).toEqual({ last_event: null, last_login: null, login_searched_to: null, first_event_at: null, event_names: [] });
  });

  test('names the affiliate the ledger counts the player for', async () => {
    const ledgers = new MemoryFunnelStore();
    const item: StreamItem = {
      shardId: 's1',
      sequenceNumber: '1',
      envelope: {
        v: 1,
        kind: 'event',
        received_at: '2026-11-01T10:00:00Z',
        record: {
          app_id: 'app_1',
          profile_id: 'p-1',
          urm_insert_id: 'a-1',
          urm_date_time: '2026-11-01T10:00:00Z',
          event: 'urm_affiliate_attributed',
          urm_aff_id: 'aff_9',
          urm_aff_link_id: 'lnk_1',
        },
      },
    };
    const settings = { currency: 'GBP', money_events: {} };
    await ledgers.putLedger(countPlayer({ stored: undefined, appId: 'app_1', profileId: 'p-1', items: [item], settings, now: new Date() }).ledger!, undefined);

    const view = await getPlayer({
      profiles: new MemoryProfiles(profile('app_1', 'p-1')),
      rejections: noRejections,
      apps,
      ledgers,
      timeline: new MemoryTimeline(),
      sentCounts: new MemorySentCounts(),
    })(ada, 'p-1');

    expect(view.attribution).toEqual({ affiliate_id: 'aff_9', link_id: 'lnk_1', day: '2026-11-01' });
  });
});

describe('changing an attribute', () => {
  let auditLog: MemoryAuditLog;
  const ports = (writer: RecordWriter) => {
    auditLog = new MemoryAuditLog();
    return {
      profiles: new MemoryProfiles(profile('app_1', 'p-1')),
      writer,
      audit: auditLog,
      newId: () => 'gen-1',
      now: () => new Date('2026-11-23T12:00:00.000Z'),
    };
  };

  test('puts a set record and an urm_back_office_action event naming the user on the stream, with one insert id', async () => {
    const writer = new CapturingWriter();

    const answer = await changePlayerAttribute(ports(writer))(ada, 'p-1', { action: 'set', attribute: 'vip', value: true, action_id: 'act-7' });

    const envelopes = writer.written.map((e) => decodeEnvelope(e.data));
    expect(answer).toEqual({ message_id: 'act-7' });
    expect(writer.written.map((e) => e.partitionKey)).toEqual(['app_1#p-1', 'app_1#p-1']);
    expect(envelopes.map((e) => [e.kind, e.record])).toEqual([
      ['profile', { app_id: 'app_1', profile_id: 'p-1', urm_date_time: '2026-11-23T12:00:00.000Z', urm_insert_id: 'urm-bo-act-7', urm_set: { vip: true } }],
      [
        'event',
        {
          app_id: 'app_1',
          profile_id: 'p-1',
          urm_date_time: '2026-11-23T12:00:00.000Z',
          urm_insert_id: 'urm-bo-act-7',
          event: backOfficeActionEvent,
          action: 'set_attribute',
          attribute: 'vip',
          value: true,
          user_id: 'usr_1',
          user_email: 'ada@example.com',
        },
      ],
    ]);
  });

  test('writes who changed what to the audit log', async () => {
    const writer = new CapturingWriter();

    await changePlayerAttribute(ports(writer))(ada, 'p-1', { action: 'set', attribute: 'vip', value: true, action_id: 'act-7' });

    expect(auditLog.entries).toEqual([
      expect.objectContaining({
        app_id: 'app_1',
        actor: { user_id: 'usr_1', email: 'ada@example.com' },
        action: 'player.attribute_set',
        target: 'player:p-1',
        details: { attribute: 'vip', value: true, message_id: 'act-7' },
      }),
    ]);
  });

  test('unsets with urm_unset', async () => {
    const writer = new CapturingWriter();

    await changePlayerAttribute(ports(writer))(ada, 'p-1', { action: 'unset', attribute: 'vip' });

    expect(decodeEnvelope(writer.written[0]!.data).record).toMatchObject({ urm_unset: ['vip'], urm_insert_id: 'urm-bo-gen-1' });
    expect(decodeEnvelope(writer.written[1]!.data).record).toMatchObject({ action: 'unset_attribute', attribute: 'vip' });
  });

  test('a player of another application is not found, and nothing is written', async () => {
    const writer = new CapturingWriter();

    await expect(changePlayerAttribute(ports(writer))({ ...ada, appId: 'app_2' }, 'p-1', { action: 'unset', attribute: 'vip' })).rejects.toBeInstanceOf(
      NotFound,
    );
    expect(writer.written).toEqual([]);
  });
});

describe("the player's gate line", () => {
  const device = JSON.stringify({ endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: { p256dh: 'k', auth: 'a' } });
  const reachable = { email: 'ada@example.com', urm_consent_email: true, urm_receives_notifications: true, urm_web_push_notification_token: [device] };
  const NOW = new Date('2026-11-21T12:00:00.000Z');

  afterEach(() => {
    jest.useRealTimers();
  });

  async function gateOf(attrs: Record<string, unknown>, messaging: App['messaging'] = undefined, sentCounts = new MemorySentCounts()) {
    jest.useFakeTimers({ now: NOW, doNotFake: ['setImmediate', 'setTimeout', 'setInterval', 'nextTick', 'queueMicrotask'] });
    const withSettings = new MemoryAppStore([{ app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00.000Z', ...(messaging ? { messaging } : {}) }]);
    const read = getPlayer({
      profiles: new MemoryProfiles(profile('app_1', 'p-1', attrs)),
      rejections: noRejections,
      apps: withSettings,
      ledgers: new MemoryFunnelStore(),
      timeline: new MemoryTimeline(),
      sentCounts,
    });
    return (await read(ada, 'p-1')).gate;
  }

  test('a self-excluded player: email refused until the exclusion ends; push as well', async () => {
    const gate = await gateOf({ ...reachable, urm_rg_status: 'self_excluded', urm_rg_until: '2027-01-01T00:00:00Z' });

    expect(gate).toEqual({
      email: { verdict: 'refuse', reason: 'rg_status', detail: 'self-excluded until 2027-01-01' },
      push: { verdict: 'refuse', reason: 'rg_status', detail: 'self-excluded until 2027-01-01' },
    });
  });

  test("the command line's gate of a player reads the profile as the send does, and an unknown player is not found", async () => {
    const ports = {
      profiles: new MemoryProfiles(profile('app_1', 'p-1', { ...reachable, urm_rg_status: 'blocked' })),
      apps: new MemoryAppStore([{ app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00.000Z' }]),
      sentCounts: new MemorySentCounts(),
    };

    const lines = await playerGate(ports)('app_1', 'p-1');

    expect(lines.email).toEqual({ verdict: 'refuse', reason: 'rg_status', detail: 'blocked' });
    await expect(playerGate(ports)('app_1', 'p-nobody')).rejects.toMatchObject({ name: 'NotFound' });
  });

  test('a reachable player with no caps: both would be sent, and no count is read', async () => {
    const sentCounts = new MemorySentCounts();

    const gate = await gateOf(reachable, undefined, sentCounts);

    expect(gate).toEqual({ email: { verdict: 'send' }, push: { verdict: 'send' } });
    expect(sentCounts.reads).toBe(0);
  });

  test("the caps are read in the player's local day and week: a day's cap reached refuses that channel only", async () => {
    const sentCounts = new MemorySentCounts();
    sentCounts.set('app_1', 'p-1', 'email', { day: '2026-11-22', week: '2026-W47' }, { day: 1, week: 1 });

    const gate = await gateOf({ ...reachable, urm_timezone: 'Pacific/Auckland' }, { caps: { email: { daily: 1 }, push: { daily: 1 } } }, sentCounts);

    expect(gate).toEqual({ email: { verdict: 'refuse', reason: 'daily_cap', detail: '1 per day reached' }, push: { verdict: 'send' } });
    expect(sentCounts.reads).toBe(2);
  });

  test('in quiet hours, on the application clock, marketing would be deferred to the window’s end', async () => {
    const gate = await gateOf(reachable, { quiet_hours: { start: '11:00', end: '13:00' } });

    expect(gate.email).toEqual({ verdict: 'defer', reason: 'quiet_hours', detail: 'quiet hours until 13:00 (UTC)', until: '2026-11-21T13:00:00.000Z' });
  });
});
