import { describe, expect, test } from '@jest/globals';
import {
  archiveSegment,
  createSegment,
  editSegment,
  getSegment,
  listSegments,
  segmentIdFromName,
  segmentMemberIds,
  type SegmentPorts,
} from '../../../functions/back-office/segments';
import { segmentCsv, segmentMembers } from '../../../functions/back-office/segment-members';
import { Conflict, NotFound, ValidationError } from '../../../functions/domain/errors';
import type { StoredLedger } from '../../../functions/domain/funnel';
import { MAX_ACTIVE_SEGMENTS, type SegmentDefinition } from '../../../functions/domain/segments/model';
import { MemoryAppStore } from '../../support/affiliates';
import { FakeClock, MemoryAuditLog } from '../../support/enterprise';
import { MemoryFunnelStore } from '../../support/funnel-store';
import { MemoryProfiles, storedProfile } from '../../support/players';
import { MemorySegmentStore } from '../../support/segments';

const ada = { user_id: 'usr_1', email: 'ada@example.com' };
const deposits = { events: { name: 'Deposit' }, measure: 'count', op: 'gte', value: 2, within_days: 30 };

function arrange() {
  const clock = new FakeClock(new Date('2026-11-21T10:00:00.000Z'));
  const segments = new MemorySegmentStore();
  const profiles = new MemoryProfiles();
  const ledgers = new MemoryFunnelStore();
  const audit = new MemoryAuditLog();
  const registered: SegmentDefinition[] = [];
  const ports: SegmentPorts = {
    segments,
    profiles,
    ledgers,
    apps: new MemoryAppStore([{ app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00.000Z', currency: 'EUR' }]),
    audit,
    now: clock.now,
    registerNeeds: async (definition) => {
      registered.push(definition);
    },
  };
  const create = (input: Parameters<ReturnType<typeof createSegment>>[2]) => createSegment(ports)('app_1', ada, input);
  return { clock, segments, profiles, ledgers, audit, registered, ports, create };
}

function ledgerOf(profileId: string, lifetime: Partial<StoredLedger['lifetime']>, lastDeposit?: { day: string; amount: string }): StoredLedger {
  return {
    pk: `p#app_1#${profileId}`,
    sk: 'ledger',
    app_id: 'app_1',
    profile_id: profileId,
    unattributed: {},
    lifetime: { deposit_count: 0, deposits: '0', withdrawals: '0', bets: '0', wins: '0', bonuses: '0', ...lifetime },
    ...(lastDeposit ? { last_deposit: { ...lastDeposit, urm_date_time: `${lastDeposit.day}T10:00:00.000Z` } } : {}),
    applied: {},
    recent: {},
    version: 1,
    updated_at: '2026-11-20T00:00:00.000Z',
  };
}

async function refusal(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a refusal');
}

describe('creating a segment', () => {
  test('a new segment is backfilling at version 1, its backfill started now, its id made from the name, and audited', async () => {
    const { create, audit, registered } = arrange();

    const made = await create({ name: 'Active depositors', description: 'Two deposits a month', condition: deposits });

    expect(made).toMatchObject({
      segment_id: 'active-depositors',
      name: 'Active depositors',
      description: 'Two deposits a month',
      status: 'backfilling',
      version: 1,
      size: 0,
      backfill: { started_at: '2026-11-21T10:00:00.000Z', done: 0, total: null, finished_at: null },
      condition: deposits,
    });
    expect(audit.entries).toMatchObject([{ action: 'segment.created', target: 'segment:active-depositors', actor: ada }]);
    expect(registered.map((definition) => definition.segment_id)).toEqual(['active-depositors']);
  });

  test('a given id is kept; a taken one is a conflict', async () => {
    const { create } = arrange();
    await create({ segment_id: 'vip', name: 'VIP', condition: deposits });

    expect(await refusal(create({ segment_id: 'vip', name: 'Other', condition: deposits }))).toBeInstanceOf(Conflict);
  });

  test.each([
    [{ name: '', condition: deposits }, 'name must not be empty'],
    [{ name: 'x'.repeat(101), condition: deposits }, 'name must be at most 100 characters'],
    [
      { name: 'Fine', segment_id: 'Not An Id', condition: deposits },
      'segment_id must be 1 to 64 lower-case letters, digits, _ or -, starting with a letter or digit',
    ],
    [{ name: '!!!', condition: deposits }, 'segment_id is required: the name gives none (use letters or digits)'],
    [{ name: 'Fine' } as never, 'condition is required'],
    [{ name: 'New', condition: deposits }, 'segment_id new is reserved: give another'],
    [{ name: 'Fine', description: 'x'.repeat(1001), condition: deposits }, 'description must be text of at most 1000 characters'],
  ])('%j is refused: %s', async (input, message) => {
    const { create, audit } = arrange();

    const error = await refusal(create(input as never));

    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toContain(message);
    expect(audit.entries).toEqual([]);
  });

  test("an invalid condition's message names the node's path", async () => {
    const { create } = arrange();

    const error = (await refusal(create({ name: 'Bad', condition: { all: [deposits, { ...deposits, within_days: 400 }] } }))) as ValidationError;

    expect(error.errors).toEqual(['condition.all[1].within_days must be <= 365']);
  });

  test('a condition naming an unknown or archived segment, or itself, is refused at its path', async () => {
    const { create, ports } = arrange();
    await create({ segment_id: 'old', name: 'Old', condition: deposits });
    await archiveSegment(ports)('app_1', ada, 'old');

    const error = (await refusal(
      create({ segment_id: 'fresh', name: 'Fresh', condition: { any: [{ segment: 'nope' }, { not: { segment: 'old' } }, { segment: 'fresh' }] } }),
    )) as ValidationError;

    expect(error.errors).toEqual([
      'condition.any[0].segment names nope, which is not a segment of this application',
      'condition.any[1].not.segment names old, which is archived',
      'condition.any[2].segment names this segment itself',
    ]);
  });

  test(`at most ${MAX_ACTIVE_SEGMENTS} active segments; archiving one frees a place`, async () => {
    const { create, ports } = arrange();
    for (let i = 0; i < MAX_ACTIVE_SEGMENTS; i++) await create({ segment_id: `s${i}`, name: `S${i}`, condition: deposits });

    expect(await refusal(create({ segment_id: 'one-more', name: 'One more', condition: deposits }))).toBeInstanceOf(Conflict);
    await archiveSegment(ports)('app_1', ada, 's0');
    await expect(create({ segment_id: 'one-more', name: 'One more', condition: deposits })).resolves.toMatchObject({ segment_id: 'one-more' });
  });
});

describe('editing a segment', () => {
  test('a new name or description keeps the version and status', async () => {
    const { create, ports, segments, clock } = arrange();
    await create({ segment_id: 'vip', name: 'VIP', condition: deposits });
    const stored = segments.definitions.get('app_1#vip')!;
    segments.definitions.set('app_1#vip', { ...stored, status: 'ready', backfill: { ...stored.backfill!, finished_at: '2026-11-21T10:01:00.000Z' } });
    clock.advance(60_000);

    const edited = await editSegment(ports)('app_1', ada, 'vip', { name: 'Very important', description: 'Big spenders', condition: deposits });

    expect(edited).toMatchObject({ name: 'Very important', description: 'Big spenders', version: 1, status: 'ready', updated_at: '2026-11-21T10:01:00.000Z' });
  });

  test('a changed condition makes the next version, backfilling again from now, and is audited with what changed', async () => {
    const { create, ports, segments, clock, audit, registered } = arrange();
    await create({ segment_id: 'vip', name: 'VIP', condition: deposits });
    segments.definitions.set('app_1#vip', { ...segments.definitions.get('app_1#vip')!, status: 'ready' });
    clock.advance(60_000);

    const edited = await editSegment(ports)('app_1', ada, 'vip', { condition: { ...deposits, value: 3 } });

    expect(edited).toMatchObject({ version: 2, status: 'backfilling', backfill: { started_at: '2026-11-21T10:01:00.000Z', done: 0 } });
    expect(audit.entries.at(-1)).toMatchObject({ action: 'segment.updated', details: { changed: ['condition'], version: 2 } });
    expect(registered.map((definition) => definition.version)).toEqual([1, 2]);
  });

  test('a condition that would make a cycle through other segments is refused', async () => {
    const { create, ports } = arrange();
    await create({ segment_id: 'a', name: 'A', condition: deposits });
    await create({ segment_id: 'b', name: 'B', condition: { segment: 'a' } });
    await create({ segment_id: 'c', name: 'C', condition: { all: [{ segment: 'b' }, deposits] } });

    const error = (await refusal(editSegment(ports)('app_1', ada, 'a', { condition: { not: { segment: 'c' } } }))) as ValidationError;

    expect(error.errors).toEqual(['condition.not.segment names c, which is defined through this segment (a cycle)']);
  });

  test('an unknown segment is not found; an archived one is not changed', async () => {
    const { create, ports } = arrange();
    await create({ segment_id: 'gone', name: 'Gone', condition: deposits });
    await archiveSegment(ports)('app_1', ada, 'gone');

    expect(await refusal(editSegment(ports)('app_1', ada, 'nope', { name: 'X' }))).toBeInstanceOf(NotFound);
    expect(await refusal(editSegment(ports)('app_1', ada, 'gone', { name: 'X' }))).toBeInstanceOf(Conflict);
  });
});

describe('archiving a segment', () => {
  test('is refused while an active segment names it, and allowed once that one is archived', async () => {
    const { create, ports, audit } = arrange();
    await create({ segment_id: 'base', name: 'Base', condition: deposits });
    await create({ segment_id: 'user', name: 'User', condition: { segment: 'base' } });

    const error = await refusal(archiveSegment(ports)('app_1', ada, 'base'));
    expect(error).toBeInstanceOf(Conflict);
    expect(error.message).toBe('the segment is used by user: change or archive those first');

    await archiveSegment(ports)('app_1', ada, 'user');
    await expect(archiveSegment(ports)('app_1', ada, 'base')).resolves.toMatchObject({ status: 'archived', size: 0 });
    expect(audit.entries.filter((entry) => entry.action === 'segment.archived').map((entry) => entry.target)).toEqual(['segment:user', 'segment:base']);
  });

  test('an archived segment is left out of the list unless asked for, shows no members, and is not found by the API', async () => {
    const { create, ports, segments } = arrange();
    await create({ segment_id: 'gone', name: 'Gone', condition: deposits });
    segments.addMember('app_1', 'gone', { profile_id: 'p-1', entered_at: '2026-11-21T10:00:00.000Z' });
    await archiveSegment(ports)('app_1', ada, 'gone');

    expect(await listSegments(ports)('app_1')).toEqual([]);
    expect((await listSegments(ports)('app_1', { archived: true })).map((segment) => segment.status)).toEqual(['archived']);
    expect((await segmentMembers(ports)('app_1', 'gone')).members).toEqual([]);
    expect(await refusal(segmentMemberIds(ports)('app_1', 'gone'))).toBeInstanceOf(NotFound);
  });
});

describe('reading segments and their members', () => {
  test('the list gives each segment its size from the store', async () => {
    const { create, ports, segments } = arrange();
    await create({ segment_id: 'vip', name: 'VIP', condition: deposits });
    segments.addMember('app_1', 'vip', { profile_id: 'p-1', entered_at: '2026-11-21T10:00:00.000Z' });
    segments.addMember('app_1', 'vip', { profile_id: 'p-2', entered_at: '2026-11-21T10:00:00.000Z' });

    expect(await listSegments(ports)('app_1')).toMatchObject([{ segment_id: 'vip', name: 'VIP', size: 2, status: 'backfilling' }]);
    expect(await getSegment(ports)('app_1', 'vip')).toMatchObject({ size: 2, condition: deposits });
  });

  test("a page of members carries each one's name, email and money, read in one batch of profiles and one of ledgers", async () => {
    const { create, ports, segments, profiles, ledgers } = arrange();
    await create({ segment_id: 'vip', name: 'VIP', condition: deposits });
    for (const id of ['p-1', 'p-2', 'p-3']) segments.addMember('app_1', 'vip', { profile_id: id, entered_at: '2026-11-21T10:00:00.000Z' });
    profiles.add(storedProfile('app_1', 'p-1', { name: 'Ada Lovelace', email: 'ada@example.com' }));
    profiles.add(storedProfile('app_1', 'p-2', { first_name: 'Bo', last_name: 'Diddley' }));
    await ledgers.putLedger(
      ledgerOf('p-1', { deposit_count: 2, deposits: '150.50', bets: '100', wins: '20.25' }, { day: '2026-11-20', amount: '50.50' }),
      undefined,
    );
    profiles.reads.length = 0;
    ledgers.calls.length = 0;

    const page = await segmentMembers(ports)('app_1', 'vip', { limit: 2 });

    expect(page).toEqual({
      currency: 'EUR',
      members: [
        {
          profile_id: 'p-1',
          entered_at: '2026-11-21T10:00:00.000Z',
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          deposits: '150.50',
          deposit_count: 2,
          ngr: '79.75',
          last_deposit: { day: '2026-11-20', amount: '50.50' },
        },
        {
          profile_id: 'p-2',
          entered_at: '2026-11-21T10:00:00.000Z',
          name: 'Bo Diddley',
          email: null,
          deposits: '0',
          deposit_count: 0,
          ngr: '0',
          last_deposit: null,
        },
      ],
      next_cursor: expect.any(String),
    });
    expect(profiles.reads).toHaveLength(1);
    expect(ledgers.calls.map((call) => call.op)).toEqual(['ledgers']);

    const rest = await segmentMembers(ports)('app_1', 'vip', { limit: 2, cursor: page.next_cursor! });
    expect(rest.members.map((member) => member.profile_id)).toEqual(['p-3']);
    expect(rest.next_cursor).toBeNull();
  });

  test("another segment's cursor is refused", async () => {
    const { create, ports, segments } = arrange();
    await create({ segment_id: 'a', name: 'A', condition: deposits });
    await create({ segment_id: 'b', name: 'B', condition: deposits });
    for (const id of ['p-1', 'p-2']) segments.addMember('app_1', 'a', { profile_id: id, entered_at: '2026-11-21T10:00:00.000Z' });
    const { next_cursor } = await segmentMemberIds(ports)('app_1', 'a', { limit: 1 });

    const error = (await refusal(segmentMemberIds(ports)('app_1', 'b', { cursor: next_cursor! }))) as ValidationError;

    expect(error).toBeInstanceOf(ValidationError);
    expect(error.errors).toEqual(['cursor is not one this segment gave']);
  });

  test('an unknown segment is not found', async () => {
    const { ports } = arrange();

    expect(await refusal(getSegment(ports)('app_1', 'nope'))).toBeInstanceOf(NotFound);
    expect(await refusal(segmentMembers(ports)('app_1', 'nope'))).toBeInstanceOf(NotFound);
  });
});

describe('the CSV export', () => {
  test('escapes quotes, commas and line breaks, and neutralises cells a spreadsheet would run as formulas', async () => {
    const { create, ports, segments, profiles } = arrange();
    await create({ segment_id: 'vip', name: 'VIP', condition: deposits });
    segments.addMember('app_1', 'vip', { profile_id: 'p-1', entered_at: '2026-11-21T10:00:00.000Z' });
    profiles.add(storedProfile('app_1', 'p-1', { name: '=HYPERLINK("https://evil.example","click")', email: 'a,b@example.com' }));

    const file = await segmentCsv(ports)('app_1', 'vip');

    expect(file.file_name).toBe('segment-vip.csv');
    expect(file.csv).toBe(
      'profile_id,name,email,entered_at,deposits,deposit_count,ngr,last_deposit_day,last_deposit_amount,currency\r\n' +
        `p-1,"'=HYPERLINK(""https://evil.example"",""click"")","a,b@example.com",2026-11-21T10:00:00.000Z,0,0,0,,,EUR\r\n`,
    );
    expect(file.next_cursor).toBeNull();
  });

  test('a file holds at most its rows; the next starts where it ended, and together they hold every member once', async () => {
    const { create, ports, segments } = arrange();
    await create({ segment_id: 'vip', name: 'VIP', condition: deposits });
    const ids = Array.from({ length: 250 }, (_, i) => `p-${String(i).padStart(3, '0')}`);
    for (const id of ids) segments.addMember('app_1', 'vip', { profile_id: id, entered_at: '2026-11-21T10:00:00.000Z' });

    const first = await segmentCsv(ports)('app_1', 'vip', { rowsPerFile: 120 });
    const second = await segmentCsv(ports)('app_1', 'vip', { rowsPerFile: 120, cursor: first.next_cursor! });
    const third = await segmentCsv(ports)('app_1', 'vip', { rowsPerFile: 120, cursor: second.next_cursor! });

    expect([first.rows, second.rows, third.rows]).toEqual([120, 120, 10]);
    expect(third.next_cursor).toBeNull();
    expect(first.file_name).toBe('segment-vip-from-p-000.csv');
    const exported = [first, second, third].flatMap((file) =>
      file.csv
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(',')[0]),
    );
    expect(exported).toEqual(ids);
  });
});

test('an id made from a name is lower case, its words joined by hyphens', () => {
  expect(segmentIdFromName('  Big Spenders (EU) ')).toBe('big-spenders-eu');
  expect(segmentIdFromName('Café à Malta')).toBe('cafe-a-malta');
});
