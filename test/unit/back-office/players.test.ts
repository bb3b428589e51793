import { describe, expect, test } from '@jest/globals';
import { backOfficeActionEvent, changePlayerAttribute, getPlayer, listPlayers, playerTimeline } from '../../../functions/back-office/players';
import { NotFound, ValidationError } from '../../../functions/domain/errors';
import type { RecordWriter, StreamEntry } from '../../../functions/domain/ingest';
import { decodeEnvelope, partitionKey } from '../../../functions/domain/stream-record';
import type { ProfileRejections, Rejection, TimelineEntry } from '../../../functions/domain/timeline';
import { countPlayer, type StoredLedger } from '../../../functions/domain/funnel';
import type { StreamItem } from '../../../functions/stream/kinesis-batch';
import { MemoryAppStore } from '../../support/affiliates';
import { MemoryAuditLog } from '../../support/enterprise';
import { MemoryFunnelStore } from '../../support/funnel-store';
import { MemoryProfiles, MemoryTimeline, storedProfile } from '../../support/players';

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

describe('listing players', () => {
  test("lists only the application's players, in profile id order, paging with a cursor", async () => {
    const profiles = new MemoryProfiles(profile('app_1', 'p-2'), profile('app_1', 'p-1'), profile('app_1', 'p-3'), profile('app_2', 'p-0'));
    const list = listPlayers({ directory: profiles, profiles, playerCounts: profiles });

    const first = await list(ada, { limit: '2' });
    const second = await list(ada, { limit: '2', cursor: first.next_cursor! });

    expect(first.players.map((p) => p.profile_id)).toEqual(['p-1', 'p-2']);
    expect(second.players.map((p) => p.profile_id)).toEqual(['p-3']);
    expect(second.next_cursor).toBeNull();
  });

  test('finds players by prefix, the exact id first', async () => {
    const profiles = new MemoryProfiles(profile('app_1', 'player-42'), profile('app_1', 'player-420'), profile('app_1', 'player-5'));

    const found = await listPlayers({ directory: profiles, profiles, playerCounts: profiles })(ada, { prefix: 'player-42' });

    expect(found.players.map((p) => p.profile_id)).toEqual(['player-42', 'player-420']);
  });

  test('leaves out deleted players', async () => {
    const profiles = new MemoryProfiles(profile('app_1', 'gone', {}, { exists: false }), profile('app_1', 'here'));

    const found = await listPlayers({ directory: profiles, profiles, playerCounts: profiles })(ada, {});

    expect(found.players).toEqual([{ profile_id: 'here', updated_at: '2026-11-20T10:00:00.000Z' }]);
  });

  test("answers the application's players counter as its total, whatever page or prefix", async () => {
    const profiles = new MemoryProfiles(profile('app_1', 'p-1'), profile('app_1', 'p-2'));
    profiles.counts.set('app_1', { players: 1_234, registrations: {} });
    profiles.counts.set('app_2', { players: 7, registrations: {} });

    const found = await listPlayers({ directory: profiles, profiles, playerCounts: profiles })(ada, { prefix: 'p-2', limit: '1' });

    expect(found.total).toBe(1_234);
  });

  test('refuses a cursor it did not give', async () => {
    const profiles = new MemoryProfiles();

    await expect(listPlayers({ directory: profiles, profiles, playerCounts: profiles })(ada, { cursor: 'not-a-cursor' })).rejects.toBeInstanceOf(
      ValidationError,
    );
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

    const view = await getPlayer({ profiles, rejections, apps, ledgers: new MemoryFunnelStore() })(ada, 'p-1');

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

    await expect(getPlayer({ profiles, rejections: noRejections, apps, ledgers: new MemoryFunnelStore() })(ada, 'p-1')).rejects.toBeInstanceOf(NotFound);
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

    const view = await getPlayer({ profiles, rejections: noRejections, apps, ledgers })(ada, 'p-1');

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
    const view = await getPlayer({ profiles, rejections: noRejections, apps, ledgers: new MemoryFunnelStore() })(ada, 'p-1');

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

    const view = await getPlayer({ profiles, rejections: noRejections, apps, ledgers })(ada, 'p-1');

    expect(view.money).toMatchObject({ deposits: '0', deposit_count: 0, first_deposit: { day: '2026-11-01', amount: '40' }, last_deposit: null });
  });
});

describe("a player's timeline", () => {
  const pk = partitionKey('app_1', 'p-1');

  test('pages newest first, system events included', async () => {
    const timeline = new MemoryTimeline([entry(pk, 1, 'deposit'), entry(pk, 2, 'urm_email_sent'), entry(pk, 3, 'login')]);
    const read = playerTimeline({ profiles: new MemoryProfiles(profile('app_1', 'p-1')), timeline });

    const first = await read(ada, 'p-1', { limit: '2' });
    const second = await read(ada, 'p-1', { limit: '2', cursor: first.next_cursor! });

    expect(first.events.map((e) => e.event)).toEqual(['login', 'urm_email_sent']);
    expect(second.events.map((e) => e.event)).toEqual(['deposit']);
    expect(second.next_cursor).toBeNull();
  });

  test('filters by event name across reads, within a bounded number of queries', async () => {
    const entries = Array.from({ length: 3000 }, (_, n) => entry(pk, n, n % 1000 === 0 ? 'deposit' : 'spin'));
    const timeline = new MemoryTimeline(entries);
    const read = playerTimeline({ profiles: new MemoryProfiles(profile('app_1', 'p-1')), timeline });

    const page = await read(ada, 'p-1', { event: 'deposit', limit: '10' });

    expect(page.events.map((e) => e.urm_insert_id)).toEqual(['id-2000', 'id-1000']);
    expect(timeline.reads).toBe(4);
    expect(page.next_cursor).not.toBeNull();
  });

  test("another application's player has no timeline here", async () => {
    const timeline = new MemoryTimeline([entry(partitionKey('app_2', 'p-1'), 1, 'deposit')]);

    await expect(playerTimeline({ profiles: new MemoryProfiles(profile('app_2', 'p-1')), timeline })(ada, 'p-1', {})).rejects.toBeInstanceOf(NotFound);
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
