/**
 * A long timeline merged and deleted through the API: the profile consumer
 * copies and removes it in bounded steps, continued through the stream
 * (docs/architecture.md, "Bounded timeline work"). The shared test stack's
 * step is 150 entries (TIMELINE_STEP_ITEMS, set by test/support/jest/stack-setup.js),
 * so 600 entries take several continued steps each way; the 20,000-entry case
 * at the service's own step is in test/unit/consumers/apply-profiles-handler.test.ts
 * (DynamoDB Local writes about 60 items a second, too slow to seed 20,000 here).
 * The entries are seeded straight into the local timeline table.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll } from '../../functions/adapters/batch-write';
import { partitionKey } from '../../functions/domain/stream-record';
import { timeKey, type TimelineEntry } from '../../functions/domain/timeline';
import { entriesOf, packPages, type TimelinePageItem } from '../../functions/domain/timeline-pages';
import { tables } from '../../functions/manifest/resources';
import { localClients } from '../../lib/local/stack';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';
import { applyAndRead, profileRecord, readProfile, readTimeline, send, until } from '../support/profiles';

const ENTRIES = 600;

let stack: TestStack;
let document: ReturnType<typeof localClients>['document'];
beforeAll(async () => {
  stack = await testStack();
  document = localClients(stack.endpoints).document;
});

/** Entries recorded on the profile an hour ago, from a shard of their own: any later delete covers them. */
async function seedTimeline(profileId: string): Promise<void> {
  const pk = partitionKey(stack.dev.app_id, profileId);
  const receivedAt = new Date(Date.now() - 3_600_000).toISOString();
  const entries: TimelineEntry[] = Array.from({ length: ENTRIES }, (_, i) => {
    const at = new Date(Date.UTC(2026, 9, 1) + i * 1_000).toISOString();
    const insertId = `seeded-${i}`;
    return {
      pk,
      insert_id: insertId,
      ts: timeKey(at, insertId),
      event: 'spin',
      urm_date_time: at,
      received_at: receivedAt,
      shard: 'shardId-seeded',
      seq: String(i + 1),
      attrs: JSON.stringify({ i }),
    };
  });
  // Packed as the event consumer packs them.
  const pages = packPages(pk, entries);
  const chunks = Array.from({ length: 4 }, (_, w) => pages.filter((_, i) => i % 4 === w));
  await Promise.all(
    chunks.map((chunk) =>
      batchWriteAll(
        document,
        tables.timeline.localName,
        chunk.map((Item) => ({ PutRequest: { Item } })),
      ),
    ),
  );
}

/** How many entries the profile's timeline holds: only to know when to read it back through the API. */
async function storedCount(profileId: string): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await document.send(
      new QueryCommand({
        TableName: tables.timeline.localName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': partitionKey(stack.dev.app_id, profileId) },
        ExclusiveStartKey: start,
      }),
    );
    count += (out.Items ?? []).reduce((n, page) => n + entriesOf(page as TimelinePageItem).length, 0);
    start = out.LastEvaluatedKey;
  } while (start);
  return count;
}

const firstPage = (profileId: string) =>
  request(stack.baseUrl, 'GET', `/profiles/${encodeURIComponent(profileId)}/events?app_id=${stack.dev.app_id}&limit=100`, { key: stack.dev.server_key });

describe('a timeline longer than one step', () => {
  test('is merged into another profile whole, and removed whole when that profile is deleted, leaving later events', async () => {
    const run = randomUUID().slice(0, 8);
    const [source, target] = [`long-source-${run}`, `long-target-${run}`];
    await applyAndRead(stack, source, [profileRecord(stack, source, { country: 'FR' })]);
    await applyAndRead(stack, target, [profileRecord(stack, target, { level: 1 })]);
    await seedTimeline(source);

    // The attributes are merged at once; the timeline follows in steps.
    expect(await applyAndRead(stack, target, [profileRecord(stack, target, { urm_merge: [source] })])).toEqual({ level: 1, country: 'FR' });
    await until(
      () => storedCount(target),
      (n) => n >= ENTRIES,
      'the merged timeline to be copied',
      45_000,
    );
    const merged = await readTimeline(stack, target);
    expect(merged.length).toBe(ENTRIES);
    expect(new Set(merged.map((e) => e.urm_insert_id)).size).toBe(ENTRIES);
    expect(merged.every((e) => e.merged_from === source)).toBeTruthy();

    await send(stack, '/profiles', [profileRecord(stack, target, { urm_delete_profile: 'profile_id' })]);
    await until(
      () => readProfile(stack, target),
      (r) => r.status === 404,
      'the delete to be applied',
    );
    await send(stack, '/events', [
      { app_id: stack.dev.app_id, profile_id: target, event: 'login', urm_date_time: '2026-11-23T10:00:00Z', urm_insert_id: `after-${run}` },
    ]);
    // While the removal is under way, reads already leave out what the delete covers.
    const meanwhile = await until(
      () => firstPage(target),
      (p) => p.body.events?.length === 1,
      'the event after the delete',
    );
    expect(meanwhile.body.events.map((e: { urm_insert_id: string }) => e.urm_insert_id)).toEqual([`after-${run}`]);

    await until(
      () => storedCount(target),
      (n) => n === 1,
      'the deleted timeline to be removed',
      45_000,
    );
    expect((await readTimeline(stack, target)).map((e) => e.urm_insert_id)).toEqual([`after-${run}`]);
    expect((await readProfile(stack, target)).status).toBe(404);
    expect(await storedCount(source)).toBe(ENTRIES);
  }, 120_000);
});
