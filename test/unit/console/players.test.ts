/** The console's players routes (functions/console/players): reading players, and a change that goes on the stream. */
import { describe, expect, test } from '@jest/globals';
import { defaultSearchAttributes, termsDiff, termsOf } from '../../../functions/domain/player-search';
import { decodeEnvelope } from '../../../functions/domain/stream-record';
import type { TimelineEntry } from '../../../functions/domain/timeline';
import { consoleRouter } from '../../support/console-router';
import { storedProfile } from '../../support/players';

/** The console with the player p-1 of app_1 ({vip: true}), and one of another application. */
function withPlayers() {
  const api = consoleRouter();
  api.profiles.add(storedProfile('app_1', 'p-1', { vip: true }), storedProfile('app_2', 'p-2'));
  return api;
}

const records = (api: ReturnType<typeof consoleRouter>) =>
  api.stream.writes.flat().map((entry) => ({ partitionKey: entry.partitionKey, record: decodeEnvelope(entry.data).record }));

describe('setting an attribute from the console', () => {
  const change = { action: 'set', attribute: 'tier', value: 'gold' };

  test("a marketer's change goes on the stream as a profile record and an action event, under the player's key, and is audited", async () => {
    const api = withPlayers();
    const marketer = await api.signIn('marketer');

    const response = await api.call('POST', '/console/api/players/p-1/attributes', { as: marketer, body: change });

    expect(response.status).toBe(200);
    expect(api.stream.writes).toHaveLength(1);
    expect(records(api)).toEqual([
      { partitionKey: 'app_1#p-1', record: expect.objectContaining({ urm_set: { tier: 'gold' } }) },
      { partitionKey: 'app_1#p-1', record: expect.objectContaining({ event: 'urm_back_office_action', user_id: marketer.userId, attribute: 'tier' }) },
    ]);
    expect(api.audit.entries).toEqual([
      expect.objectContaining({ action: 'player.attribute_set', target: 'player:p-1', details: expect.objectContaining({ attribute: 'tier', value: 'gold' }) }),
    ]);
  });

  test('a viewer is refused with 403 and nothing reaches the stream', async () => {
    const api = withPlayers();

    const response = await api.call('POST', '/console/api/players/p-1/attributes', { as: await api.signIn('viewer'), body: change });

    expect(response.status).toBe(403);
    expect(api.stream.writes).toEqual([]);
  });

  test("an unknown player, or another application's, is 404 and nothing reaches the stream", async () => {
    const api = withPlayers();

    const unknown = await api.call('POST', '/console/api/players/p-9/attributes', { body: change });
    const theirs = await api.call('POST', '/console/api/players/p-2/attributes', { body: change });

    expect([unknown.status, theirs.status]).toEqual([404, 404]);
    expect(api.stream.writes).toEqual([]);
  });

  test('a system attribute is refused with 400 naming it', async () => {
    const api = withPlayers();

    const response = await api.call('POST', '/console/api/players/p-1/attributes', { body: { action: 'set', attribute: 'urm_aff_id', value: 'x' } });

    expect(response.status).toBe(400);
    expect(response.body.errors.join()).toMatch(/urm_aff_id/);
    expect(api.stream.writes).toEqual([]);
  });
});

describe('reading players from the console', () => {
  test("lists the session's application's players only, by prefix", async () => {
    const api = withPlayers();
    api.profiles.add(storedProfile('app_1', 'q-1'));
    // The counters the profile consumer keeps: the application's total, whatever the prefix.
    api.profiles.counts.set('app_1', { players: 2, registrations: {} });
    api.profiles.counts.set('app_2', { players: 1, registrations: {} });

    const response = await api.call('GET', '/console/api/players?prefix=p-', { as: await api.signIn('viewer') });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      players: [expect.objectContaining({ profile_id: 'p-1', updated_at: '2026-11-20T10:00:00.000Z', attributes: { vip: true } })],
      next_cursor: null,
      total: 2,
    });
  });

  test("searches the session's application's players by name, and refuses a search of over 200 characters", async () => {
    const api = withPlayers();
    const liam = { first_name: 'Liam', last_name: 'Borg' };
    for (const appId of ['app_1', 'app_2']) {
      api.profiles.add(storedProfile(appId, `liam-of-${appId}`, liam));
      await api.search.write(appId, `liam-of-${appId}`, termsDiff(new Map(), termsOf(`liam-of-${appId}`, liam, defaultSearchAttributes)));
    }
    const viewer = await api.signIn('viewer');

    const found = await api.call('GET', '/console/api/players?q=LIAM%20B', { as: viewer });
    const long = await api.call('GET', `/console/api/players?q=${'a'.repeat(201)}`, { as: viewer });

    expect(found.status).toBe(200);
    expect(found.body.players.map((p: { profile_id: string; name: string }) => [p.profile_id, p.name])).toEqual([['liam-of-app_1', 'Liam Borg']]);
    expect(long.status).toBe(400);
  });

  test('one player comes with its attributes and their types; another application’s is 404', async () => {
    const api = withPlayers();

    const mine = await api.call('GET', '/console/api/players/p-1');
    const theirs = await api.call('GET', '/console/api/players/p-2');

    expect(mine.body).toMatchObject({ profile_id: 'p-1', attributes: [{ name: 'vip', type: 'boolean', value: true }] });
    expect([theirs.status, theirs.body]).toEqual([404, { message: 'player not found' }]);
  });

  test('a player id is percent-decoded from the path', async () => {
    const api = consoleRouter();
    api.profiles.add(storedProfile('app_1', 'ann lee@example.com'));

    const response = await api.call('GET', '/console/api/players/ann%20lee%40example.com');

    expect(response.body.profile_id).toBe('ann lee@example.com');
  });

  test('the timeline is newest first, filtered by event name', async () => {
    const api = withPlayers();
    const entry = (n: number, event: string): TimelineEntry => {
      const at = `2026-11-01T00:00:0${n}.000Z`;
      return {
        pk: 'app_1#p-1',
        insert_id: `id-${n}`,
        ts: `${at}#id-${n}`,
        event,
        urm_date_time: at,
        received_at: at,
        shard: 's1',
        seq: String(n),
        attrs: '{}',
      };
    };
    api.timeline.entries.push(entry(1, 'login'), entry(2, 'deposit'), entry(3, 'login'));

    const response = await api.call('GET', '/console/api/players/p-1/timeline?event=login');

    expect(response.body.events.map((event: { urm_insert_id: string }) => event.urm_insert_id)).toEqual(['id-3', 'id-1']);
  });
});
