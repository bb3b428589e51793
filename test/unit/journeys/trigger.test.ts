/** POST /api/journeys/{journey_id}/trigger's core over fakes: what it refuses, and the one event it writes. */
import { describe, expect, test } from '@jest/globals';
import { triggerJourney } from '../../../functions/api/trigger-journey/core';
import { Conflict, NotFound } from '../../../functions/domain/errors';
import type { JourneyDefinition } from '../../../functions/domain/journeys/definition';
import type { JourneyStatus } from '../../../functions/domain/journeys/store';
import { MemoryJourneyStore } from '../../support/journey-store';
import { welcomeJourney } from '../../support/journeys';
import { MemoryStream } from '../../support/memory-stream';

const apiJourney: JourneyDefinition = { entry: { api: true }, steps: [{ id: 'hello', type: 'send', channel: 'email', template_id: 'hi' }] };

async function setUp(status: JourneyStatus = 'live', definition = apiJourney) {
  const journeys = new MemoryJourneyStore();
  const at = '2026-11-27T10:00:00.000Z';
  await journeys.create(
    { app_id: 'casino', journey_id: 'vip', name: 'VIP', status, version: 1, revision: 1, created_at: at, updated_at: at },
    { app_id: 'casino', journey_id: 'vip', version: 1, definition, created_at: at },
  );
  const writer = new MemoryStream();
  let n = 0;
  const trigger = triggerJourney({ journeys, writer, newId: () => `new-${++n}`, now: () => new Date(at) });
  return { trigger, writer };
}

describe('triggering a journey', () => {
  test('writes one urm_journey_triggered event naming the journey, with the data; the same insert_id gives the same event id', async () => {
    const { trigger, writer } = await setUp();

    const answer = await trigger({ app_id: 'casino', profile_id: 'ada', data: { bonus: 'B10' }, insert_id: 'crm-1' }, 'casino', 'vip');
    await trigger({ app_id: 'casino', profile_id: 'ada', data: { bonus: 'B10' }, insert_id: 'crm-1' }, 'casino', 'vip');

    expect(answer).toEqual({ message: 'Journey triggered', journey_id: 'vip', profile_id: 'ada', insert_id: 'crm-1' });
    const [first, again] = writer.envelopes().map((envelope) => envelope.record);
    expect(first).toMatchObject({ event: 'urm_journey_triggered', journey_id: 'vip', profile_id: 'ada', data: { bonus: 'B10' } });
    expect(again.urm_insert_id).toBe(first.urm_insert_id);
  });

  test('without an insert_id, each call is a trigger of its own', async () => {
    const { trigger, writer } = await setUp();

    await trigger({ app_id: 'casino', profile_id: 'ada' }, 'casino', 'vip');
    await trigger({ app_id: 'casino', profile_id: 'ada' }, 'casino', 'vip');

    const ids = writer.envelopes().map((envelope) => envelope.record.urm_insert_id);
    expect(new Set(ids).size).toBe(2);
  });

  test.each([
    ['an unknown journey', 'nope', 'live' as const, apiJourney, NotFound],
    ['an archived journey', 'vip', 'archived' as const, apiJourney, NotFound],
    ['a journey entered by an event', 'vip', 'live' as const, welcomeJourney(), Conflict],
    ['a paused journey', 'vip', 'paused' as const, apiJourney, Conflict],
    ['a draft', 'vip', 'draft' as const, apiJourney, Conflict],
  ])('refuses %s and writes nothing', async (_name, id, status, definition, error) => {
    const { trigger, writer } = await setUp(status, definition);

    await expect(trigger({ app_id: 'casino', profile_id: 'ada' }, 'casino', id)).rejects.toBeInstanceOf(error);
    expect(writer.entries()).toEqual([]);
  });
});
