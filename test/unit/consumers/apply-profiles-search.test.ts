import { beforeAll, beforeEach, describe, expect, jest, test } from '@jest/globals';
import type { KinesisStreamBatchResponse, KinesisStreamEvent, KinesisStreamRecord } from 'aws-lambda';
import { makeApplyProfilesHandler } from '../../../functions/consumers/apply-profiles/make-handler';
import { defaultSearchAttributes, type SearchSetting } from '../../../functions/domain/player-search';
import { logger } from '../../../functions/runtime/logger';
import { streamRecord } from '../../support/kinesis-event';
import { context } from '../../support/lambda';
import { MemoryStream } from '../../support/memory-stream';
import { MemoryPlayerSearch } from '../../support/player-search';
import { MemoryProfiles, MemoryRejectionLog, MemoryTimeline, storedProfile } from '../../support/players';

type Item = Record<string, unknown>;

const SHARD = 'shardId-000000000000';
const seq = (n: number) => (49_659_418_287_166_424_180_426_340_437_516_292_198_866_470_424_436_228_098n + BigInt(n)).toString();
const RECEIVED_AT = new Date(Date.now() - 60_000).toISOString();
const record = (sequence: number, fields: Item, profileId = 'p-liam', receivedAt = RECEIVED_AT): KinesisStreamRecord =>
  streamRecord({
    kind: 'profile',
    record: { app_id: 'app_1', profile_id: profileId, urm_date_time: '2026-11-21T10:00:00Z', urm_insert_id: `i-${sequence}`, ...fields },
    sequenceNumber: seq(sequence),
    shardId: SHARD,
    receivedAt,
  });
const batch = (...records: KinesisStreamRecord[]): KinesisStreamEvent => ({ Records: records });

const liam = { first_name: 'Liam', last_name: 'Borg', email: 'Liam.Borg@Example.com', phone: '+356 7912 3456' };
const liamTerms = [
  'a.email liam.borg@example.com',
  'a.first_name liam',
  'a.last_name borg',
  'a.phone +356 7912 3456',
  'a.phone 35679123456',
  'urm.id p-liam',
  'urm.name liam borg',
];

let profiles: MemoryProfiles;
let index: MemoryPlayerSearch;
let handler: (event: KinesisStreamEvent) => Promise<KinesisStreamBatchResponse>;
let setting: SearchSetting;

beforeAll(() => {
  jest.spyOn(logger, 'error').mockImplementation(() => {});
  jest.spyOn(logger, 'warn').mockImplementation(() => {});
  jest.spyOn(logger, 'info').mockImplementation(() => {});
});

beforeEach(() => {
  profiles = new MemoryProfiles();
  index = new MemoryPlayerSearch();
  setting = { attributes: defaultSearchAttributes };
  const consume = makeApplyProfilesHandler({
    profiles,
    timeline: new MemoryTimeline(),
    rejections: new MemoryRejectionLog(),
    search: { index, setting: async () => setting },
    stream: new MemoryStream(),
    now: () => new Date(),
  });
  handler = (event) => consume(event, context());
});

describe("the profile consumer keeps the players' search index", () => {
  test("a new player's terms are put in one write: id, each searchable attribute, phone digits and the full name", async () => {
    await handler(batch(record(1, { urm_set: { ...liam, country: 'MT' } })));

    expect(index.termsOf('app_1', 'p-liam')).toEqual(liamTerms);
    expect(index.writes).toHaveLength(1);
    expect(index.writes[0]!.deletes).toEqual([]);
  });

  test('a change to an attribute that is not searchable writes no index item', async () => {
    await handler(batch(record(1, { urm_set: liam })));
    index.writes.length = 0;

    await handler(batch(record(2, { urm_set: { country: 'MT' }, urm_add: { logins: 1 } })));

    expect(profiles.stored('app_1#p-liam')!.version).toBe(2);
    expect(index.writes).toEqual([]);
  });

  test('a changed email puts the new term and deletes the old one, nothing else', async () => {
    await handler(batch(record(1, { urm_set: liam })));
    index.writes.length = 0;

    await handler(batch(record(2, { urm_set: { email: 'liam@new.example' } })));

    expect(index.writes).toEqual([
      {
        appId: 'app_1',
        profileId: 'p-liam',
        puts: [{ field: { kind: 'attribute', name: 'email' }, term: 'liam@new.example' }],
        deletes: [{ field: { kind: 'attribute', name: 'email' }, term: 'liam.borg@example.com' }],
      },
    ]);
  });

  test('a delete removes every term of the player', async () => {
    await handler(batch(record(1, { urm_set: liam })));

    await handler(batch(record(2, { urm_delete_profile: true })));

    expect(index.termsOf('app_1', 'p-liam')).toEqual([]);
  });

  test('a redelivered batch leaves the index exact and writes nothing again', async () => {
    const first = batch(record(1, { urm_set: liam }), record(2, { urm_set: { email: 'l@b.example' } }));
    await handler(first);
    const writes = index.writes.length;

    await handler(first);

    expect(index.writes).toHaveLength(writes);
    expect(index.termsOf('app_1', 'p-liam')).toEqual(liamTerms.map((t) => (t.startsWith('a.email') ? 'a.email l@b.example' : t)));
  });

  test('a crash after the index write and before the profile write is repeated by the redelivery, leaving the index exact', async () => {
    await handler(batch(record(1, { urm_set: liam })));
    const change = batch(record(2, { urm_set: { last_name: 'Vella' } }));
    profiles.failing.set('app_1#p-liam', new Error('the function ran out of time'));

    expect((await handler(change)).batchItemFailures).toHaveLength(1);
    // The index has the new terms already; the profile still says Borg.
    expect(index.termsOf('app_1', 'p-liam')).toContain('a.last_name vella');
    expect(JSON.parse(profiles.stored('app_1#p-liam')!.attrs).last_name).toBe('Borg');
    profiles.failing.delete('app_1#p-liam');
    await handler(change);

    const expected = liamTerms.map((t) => t.replace('a.last_name borg', 'a.last_name vella').replace('urm.name liam borg', 'urm.name liam vella')).sort();
    expect(index.termsOf('app_1', 'p-liam')).toEqual(expected);
  });

  test('a failed index write fails the profile before its write: the records are applied on the redelivery', async () => {
    index.beforeWrite = () => {
      throw new Error('throttled');
    };
    const first = batch(record(1, { urm_set: liam }));

    expect((await handler(first)).batchItemFailures).toHaveLength(1);
    expect(profiles.stored('app_1#p-liam')).toBeUndefined();
    index.beforeWrite = undefined;
    await handler(first);

    expect(index.termsOf('app_1', 'p-liam')).toEqual(liamTerms);
  });

  test('when another writer gets there first, terms the lost attempt put that the player no longer has are taken back', async () => {
    profiles.add(storedProfile('app_1', 'p-liam', liam));
    profiles.beforeNextPut = () => profiles.add(storedProfile('app_1', 'p-liam', { ...liam, email: 'other@writer.example' }, { version: 2 }));

    await handler(batch(record(1, { urm_set: { last_name: 'Vella' } })));

    const terms = index.termsOf('app_1', 'p-liam');
    expect(terms).toContain('a.last_name vella');
    expect(terms).not.toContain('a.last_name borg');
    expect(JSON.parse(profiles.stored('app_1#p-liam')!.attrs).email).toBe('other@writer.example');
  });

  test('after the searchable attributes change, a player applied before is given its new terms and loses the old, once', async () => {
    await handler(batch(record(1, { urm_set: { ...liam, nickname: 'Ace' } })));
    const later = (seconds: number) => new Date(Date.parse(RECEIVED_AT) + seconds * 1000).toISOString();
    setting = { attributes: ['nickname'], previous: defaultSearchAttributes, changedAt: later(10) };

    await handler(batch(record(2, { urm_set: { country: 'MT' } }, 'p-liam', later(20))));
    const writes = index.writes.length;
    await handler(batch(record(3, { urm_set: { level: 2 } }, 'p-liam', later(30))));

    expect(index.termsOf('app_1', 'p-liam')).toEqual(['a.nickname ace', 'urm.id p-liam']);
    expect(index.writes).toHaveLength(writes);
  });
});
