/**
 * Segment membership in real time on the local stack: a definition is made
 * with the SegmentStore adapter (the console's routes are another area's), an
 * integrator sends events over HTTP, and membership and the engine's events
 * are read back as the console and an integrator read them. The local stack
 * runs the segment timer every second (every minute in AWS).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { DynamoSegmentStore } from '../../functions/adapters/dynamo-segment-store';
import type { Condition } from '../../functions/domain/segments/condition';
import { tables } from '../../functions/manifest/resources';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { commandLineActor } from '../../functions/domain/audit';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';
import { until } from '../support/profiles';
import { readyDefinition } from '../support/segment-state';

const DAY = 86_400_000;
let stack: TestStack;
let segments: DynamoSegmentStore;
/** An application of its own: a "no Login" segment on the shared demo application would take in every other test's players. */
let app: { appId: string; serverKey: string };
beforeAll(async () => {
  stack = await testStack();
  const db = localClients(stack.endpoints).document;
  segments = new DynamoSegmentStore(db, tables.segments.localName);
  const office = localBackOffice(db);
  const created = await createApp(office, { name: `Segments ${randomUUID().slice(0, 8)}`, portalOrigin: stack.baseUrl });
  app = { appId: created.app_id, serverKey: (await issueKey(office, created.app_id, commandLineActor, 'server')).key };
});

async function send(records: unknown[]): Promise<void> {
  const response = await request(stack.baseUrl, 'POST', '/events', { key: app.serverKey, body: records });
  expect({ status: response.status, failed: response.body.FailedRecordCount }).toEqual({ status: 200, failed: 0 });
}

async function readTimeline(profileId: string): Promise<{ event: string; urm_date_time: string; attributes: Record<string, unknown> }[]> {
  const page = await request(stack.baseUrl, 'GET', `/profiles/${encodeURIComponent(profileId)}/events?app_id=${app.appId}&limit=100`, { key: app.serverKey });
  expect(page.status).toBe(200);
  return page.body.events;
}

/** A ready segment whose condition came into being long ago: no backfill to wait for. */
async function defineReady(condition: Condition): Promise<string> {
  const segmentId = `seg-${randomUUID().slice(0, 8)}`;
  const created = await segments.create(readyDefinition(app.appId, segmentId, condition, { name: 'No Login for 7 days', sinceMs: 30 * DAY }));
  expect(created).toBe(true);
  return segmentId;
}

const isMember = async (segmentId: string, profileId: string) =>
  (await segments.members(app.appId, segmentId, 100)).members.some((member) => member.profile_id === profileId);
const login = (profileId: string, at: Date) => ({
  app_id: app.appId,
  profile_id: profileId,
  event: 'Login',
  urm_date_time: at.toISOString(),
  urm_insert_id: randomUUID(),
});
/** The engine's events of one segment on the player's timeline, newest first (other tests' segments may match the player too). */
const segmentEvents = async (profileId: string, segmentId: string) =>
  (await readTimeline(profileId))
    .filter((event) => String(event.event).startsWith('urm_segment_') && event.attributes.segment_id === segmentId)
    .map((event) => ({ event: event.event, urm_date_time: new Date(event.urm_date_time).toISOString() }));

describe('segments in real time, over HTTP', () => {
  const noLogin: Condition = { last: { name: 'Login' }, not_within_days: 7 };

  test('a player\'s Login makes them leave "no Login for 7 days" within seconds, and both changes are on their timeline', async () => {
    const segmentId = await defineReady(noLogin);
    const player = `player-${randomUUID().slice(0, 8)}`;
    const longAgo = new Date(Date.now() - 8 * DAY);
    await send([login(player, longAgo)]);
    await until(() => isMember(segmentId, player), Boolean, `${player} to enter ${segmentId}`);

    const now = new Date();
    await send([login(player, now)]);

    await until(
      () => isMember(segmentId, player),
      (member) => !member,
      `${player} to leave ${segmentId}`,
    );
    const events = await until(
      () => segmentEvents(player, segmentId),
      (found) => found.length === 2,
      `both segment events on ${player}'s timeline`,
    );
    expect(events).toEqual([
      { event: 'urm_segment_exited', urm_date_time: now.toISOString() },
      { event: 'urm_segment_entered', urm_date_time: longAgo.toISOString() },
    ]);
  });

  test('a player whose last Login is 7 days minus 30 s ago enters it within 90 s with no event, at the moment it became true', async () => {
    const segmentId = await defineReady(noLogin);
    const player = `player-${randomUUID().slice(0, 8)}`;
    const lastLogin = new Date(Date.now() - 7 * DAY + 30_000);
    await send([login(player, lastLogin)]);

    await until(() => isMember(segmentId, player), Boolean, `${player} to enter ${segmentId} by time alone`, 90_000);

    const events = await until(
      () => segmentEvents(player, segmentId),
      (found) => found.length === 1,
      `the entered event on ${player}'s timeline`,
    );
    expect(events).toEqual([{ event: 'urm_segment_entered', urm_date_time: new Date(lastLogin.getTime() + 7 * DAY).toISOString() }]);
  }, 120_000);
});
