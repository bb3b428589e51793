import { describe, expect, test } from '@jest/globals';
import { listProfileEvents } from '../../../functions/api/list-profile-events/core';
import type { StoredProfile } from '../../../functions/domain/profile-state';
import { timeKey, type TimelineEntry, type TimelinePage } from '../../../functions/domain/timeline';

const SHARD = 'shardId-000000000000';
const PK = 'app_1#p-a';
const DELETE_SEQ = '1000';

/** The by-time index as DynamoDB answers it: newest first, at most `limit` items, then where to go on. */
function timelineOf(entries: TimelineEntry[]) {
  const queries: number[] = [];
  const sorted = [...entries].sort((a, b) => (a.ts < b.ts ? 1 : a.ts > b.ts ? -1 : 0));
  return {
    queries,
    async page(pk: string, limit: number, start?: Record<string, string>): Promise<TimelinePage> {
      const mine = sorted.filter((entry) => entry.pk === pk);
      const from = start === undefined ? 0 : mine.findIndex((entry) => entry.ts < start.ts);
      const rest = from < 0 ? [] : mine.slice(from);
      const page = rest.slice(0, limit);
      queries.push(page.length);
      const last = page[page.length - 1];
      return { entries: page, next: page.length < rest.length ? { pk, insert_id: last.insert_id, ts: last.ts } : undefined };
    },
  };
}

const profilesWith = (deleted?: StoredProfile['deleted']) => ({
  async getMany(pks: string[]) {
    return new Map(deleted ? pks.map((pk) => [pk, { pk, deleted } as StoredProfile]) : []);
  },
});

/** Entry i at minute i; those with `seq` below the delete's are covered by it. */
const entry = (i: number, seq: string): TimelineEntry => {
  const at = new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString();
  return { pk: PK, insert_id: `e-${i}`, ts: timeKey(at, `e-${i}`), event: 'spin', urm_date_time: at, received_at: at, shard: SHARD, seq, attrs: '{}' };
};

async function readAll(list: ReturnType<typeof listProfileEvents>, limit: string): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let pages = 1; pages <= 1_000; pages++) {
    const view = await list('app_1', { app_id: 'app_1', limit, ...(cursor ? { cursor } : {}) }, 'p-a');
    ids.push(...view.events.map((e) => e.urm_insert_id));
    if (view.next_cursor === null) return { ids, pages };
    cursor = view.next_cursor;
  }
  throw new Error('the pages never end');
}

describe('listing a profile events', () => {
  test('while a delete is under way, the entries it covers are left out and every later entry is listed once', async () => {
    // 20,000 covered entries, with the newer profile's events among them.
    const entries = Array.from({ length: 20_000 }, (_, i) => entry(i, i % 1_000 === 0 ? '2000' : '500'));
    const timeline = timelineOf(entries);
    const list = listProfileEvents({ timeline, profiles: profilesWith({ shard: SHARD, seq: DELETE_SEQ, at: '2026-11-30T00:00:00.000Z' }) });

    const { ids } = await readAll(list, '10');

    expect(ids).toEqual(Array.from({ length: 20 }, (_, k) => `e-${19_000 - k * 1_000}`));
    expect(Math.max(...timeline.queries)).toBeLessThanOrEqual(500);
  });

  test('a first page after a delete stops at the asked number and goes on from the last entry it shows', async () => {
    const entries = [entry(1, '2000'), entry(2, '500'), entry(3, '2000'), entry(4, '2000')];
    const list = listProfileEvents({
      timeline: timelineOf(entries),
      profiles: profilesWith({ shard: SHARD, seq: DELETE_SEQ, at: '2026-11-30T00:00:00.000Z' }),
    });

    const first = await list('app_1', { app_id: 'app_1', limit: '2' }, 'p-a');
    const second = await list('app_1', { app_id: 'app_1', limit: '2', cursor: first.next_cursor! }, 'p-a');

    expect(first.events.map((e) => e.urm_insert_id)).toEqual(['e-4', 'e-3']);
    expect(second.events.map((e) => e.urm_insert_id)).toEqual(['e-1']);
    expect(second.next_cursor).toBeNull();
  });

  test('a profile never deleted is listed with one query of the asked size', async () => {
    const timeline = timelineOf([entry(1, '500'), entry(2, '500'), entry(3, '500')]);
    const list = listProfileEvents({ timeline, profiles: profilesWith() });

    const view = await list('app_1', { app_id: 'app_1', limit: '2' }, 'p-a');

    expect(view.events.map((e) => e.urm_insert_id)).toEqual(['e-3', 'e-2']);
    expect(view.next_cursor).not.toBeNull();
    expect(timeline.queries).toEqual([2]);
  });
});
