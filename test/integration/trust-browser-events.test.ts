/**
 * The public browser key against a known player's timeline, over HTTP on the
 * local stack (issue 25, item 3). The key is in every page, and lifecycle
 * events carry no proof, so anyone can send one for any profile: it must
 * never make a server-key record with the same `urm_insert_id` a duplicate
 * (docs/api.md, "Exactly once", "The browser key").
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { request } from '../support/http';
import { identitySecretOf, proofOf } from '../support/identity';
import { testStack, type TestStack } from '../support/local-stack';
import { applyAndRead, at, profileRecord, readTimeline, send, until } from '../support/profiles';

let stack: TestStack;
let siteOrigin: string;
beforeAll(async () => {
  stack = await testStack();
  siteOrigin = new URL(stack.baseUrl).origin;
});

/** As a page of the site posts with the public key: an Origin of the site, and no proof. */
const browserPost = (path: '/events' | '/profiles', body: unknown) =>
  request(stack.baseUrl, 'POST', `${path}?app_id=${stack.dev.app_id}`, { key: stack.dev.browser_key, body, headers: { Origin: siteOrigin } });

const lifecycle = (profileId: string, fields: Record<string, unknown> = {}) => ({
  app_id: stack.dev.app_id,
  profile_id: profileId,
  event: 'urm_push_clicked',
  urm_date_time: at,
  notification_id: `n-${randomUUID()}`,
  ...fields,
});

const serverEvent = (profileId: string, fields: Record<string, unknown>) => ({ app_id: stack.dev.app_id, profile_id: profileId, urm_date_time: at, ...fields });

/**
 * The profile's timeline once everything sent before now is on it: a marker event goes last (the consumer
 * takes one profile's events in order), and the timeline reads the same twice in a row (one batch's pages
 * are written side by side, so the marker's may show a moment before the others').
 */
async function settledTimeline(profileId: string) {
  const marker = `marker-${randomUUID()}`;
  await send(stack, '/events', [serverEvent(profileId, { event: 'marker', urm_insert_id: marker, urm_date_time: '2026-11-21T11:00:00Z' })]);
  let previous = '';
  const events = await until(
    () => readTimeline(stack, profileId),
    (read) => {
      const [now, before] = [JSON.stringify(read), previous];
      previous = now;
      return now === before && read.some((event) => event.urm_insert_id === marker);
    },
    `the marker on ${profileId}'s timeline`,
  );
  return events.filter((event) => event.urm_insert_id !== marker);
}

describe('a browser-key event', () => {
  for (const kind of ['urm_push_received', 'urm_push_clicked', 'urm_push_dismissed']) {
    test(`(${kind}) sent first with a server event's urm_insert_id never makes the server event disappear from the timeline`, async () => {
      const profileId = `player-${randomUUID()}`;
      const insertId = `deposit-${randomUUID()}`;

      const planted = await browserPost('/events', [lifecycle(profileId, { event: kind, urm_insert_id: insertId })]);
      await send(stack, '/events', [serverEvent(profileId, { event: 'Deposit', amount: 50, urm_insert_id: insertId })]);
      const timeline = await settledTimeline(profileId);

      expect(planted.status).toBe(200);
      expect(timeline.map((event) => event.event).sort()).toEqual(['Deposit', kind]);
      expect(timeline.find((event) => event.event === 'Deposit')).toMatchObject({ urm_insert_id: insertId, attributes: { amount: 50 } });
    });
  }

  test('sent with the id a server event already has leaves that event as it was', async () => {
    const profileId = `player-${randomUUID()}`;
    const insertId = `self-exclusion-${randomUUID()}`;
    await send(stack, '/events', [serverEvent(profileId, { event: 'self_exclusion_requested', urm_insert_id: insertId })]);

    await browserPost('/events', [lifecycle(profileId, { urm_insert_id: insertId })]);
    const timeline = await settledTimeline(profileId);

    expect(timeline.map((event) => [event.event, event.urm_insert_id === insertId])).toEqual(
      expect.arrayContaining([
        ['self_exclusion_requested', true],
        ['urm_push_clicked', false],
      ]),
    );
  });

  test("is stored under an id of the service's browser namespace, once however often it is reported", async () => {
    const profileId = `player-${randomUUID()}`;
    const report = lifecycle(profileId, { urm_insert_id: 'n-1:clicked' });

    // The worker's retry re-sends the same record; a forger's copy with another id is the same report.
    await browserPost('/events', [report]);
    await browserPost('/events', [report]);
    await browserPost('/events', [{ ...report, urm_insert_id: 'anything-else' }]);
    const timeline = await settledTimeline(profileId);

    expect(timeline).toHaveLength(1);
    expect(timeline[0]).toMatchObject({ event: 'urm_push_clicked', attributes: { notification_id: report.notification_id } });
    expect(timeline[0].urm_insert_id).toMatch(/^urm-browser-[0-9a-f]{32}$/);
  });
});

describe("a browser-key profile record, even with the profile's proof", () => {
  test('never makes a server-key profile record with the same urm_insert_id a duplicate', async () => {
    const profileId = `player-${randomUUID()}`;
    const insertId = `flag-${randomUUID()}`;
    const proof = proofOf(await identitySecretOf(stack), profileId);

    const planted = await browserPost('/profiles', [
      profileRecord(stack, profileId, { urm_insert_id: insertId, urm_set: { urm_receives_notifications: false }, urm_profile_id_hash: proof }),
    ]);
    const attributes = await applyAndRead(stack, profileId, [profileRecord(stack, profileId, { urm_insert_id: insertId, urm_set: { bonus_blocked: true } })]);

    expect(planted.status).toBe(200);
    expect(attributes).toMatchObject({ bonus_blocked: true, urm_receives_notifications: false });
  });
});

describe('the urm-browser- namespace', () => {
  for (const path of ['/events', '/profiles'] as const) {
    test(`is refused to a server key on ${path}, naming urm_insert_id, and nothing is written`, async () => {
      const profileId = `player-${randomUUID()}`;
      const record =
        path === '/events'
          ? serverEvent(profileId, { event: 'Deposit', urm_insert_id: 'urm-browser-0123456789abcdef0123456789abcdef' })
          : profileRecord(stack, profileId, { urm_insert_id: 'urm-browser-0123456789abcdef0123456789abcdef', urm_set: { vip: true } });

      const response = await request(stack.baseUrl, 'POST', path, { key: stack.dev.server_key, body: [record] });

      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([expect.stringMatching(/^\[0\]\.urm_insert_id must /)]);
    });
  }
});
