/** The journeys consumer and timer over fakes: entries, first deposit, waits, goals, redelivery and crashes. */
import { describe, expect, test } from '@jest/globals';
import { runJourneys } from '../../../functions/consumers/run-journeys/core';
import type { App } from '../../../functions/domain/apps';
import type { StoredLedger } from '../../../functions/domain/funnel';
import type { JourneyDefinition } from '../../../functions/domain/journeys/definition';
import { journeyRunner, JOURNEY_CONVERTED_EVENT, JOURNEY_ENTERED_EVENT, JOURNEY_EXITED_EVENT } from '../../../functions/domain/journeys/runner';
import type { JourneyStatus } from '../../../functions/domain/journeys/store';
import { decodeEnvelope } from '../../../functions/domain/stream-record';
import type { TemplateSendOutcome, TemplateSendRequest } from '../../../functions/messaging/send-template';
import { runJourneyTimers } from '../../../functions/scheduled/journey-timers/core';
import type { StreamItem } from '../../../functions/stream/kinesis-batch';
import { MemoryJourneyStore } from '../../support/journey-store';
import { welcomeJourney } from '../../support/journeys';
import { MemoryStream } from '../../support/memory-stream';

const APP = 'casino';
const app = { app_id: APP, name: 'Casino', created_at: '2026-01-01T00:00:00Z', currency: 'EUR', money_events: { Deposit: 'deposit' } } as App;
const DAY = 86_400_000;

function world(options: { definition?: JourneyDefinition; status?: JourneyStatus; ledgers?: Record<string, StoredLedger> } = {}) {
  const journeys = new MemoryJourneyStore();
  const stream = new MemoryStream();
  const sends: TemplateSendRequest[] = [];
  const claimed = new Set<string>();
  let clock = Date.parse('2026-11-27T10:00:00Z');
  const failSends = { next: 0 };
  const send = async (request: TemplateSendRequest): Promise<TemplateSendOutcome> => {
    sends.push(request);
    if (failSends.next > 0) {
      failSends.next--;
      throw new Error('provider down');
    }
    // The gate's message-id claim: a message id goes once.
    if (claimed.has(request.messageId)) return { status: 'duplicate' } as TemplateSendOutcome;
    claimed.add(request.messageId);
    return { status: 'sent', message_id: request.messageId } as unknown as TemplateSendOutcome;
  };
  const now = () => new Date(clock);
  const runner = journeyRunner({
    journeys,
    send,
    stream,
    apps: { get: async (id) => (id === APP ? app : undefined) },
    profiles: { attributes: async () => ({}) },
    timeline: { walk: async () => ({ entries: [] }) },
    members: async () => new Set(),
    now,
    newId: () => 'id',
  });
  const head = {
    app_id: APP,
    journey_id: 'welcome',
    name: 'Welcome',
    status: options.status ?? 'live',
    version: 1,
    revision: 1,
    created_at: '2026-11-01T00:00:00Z',
    updated_at: '2026-11-01T00:00:00Z',
  } as const;
  void journeys.create(head, {
    app_id: APP,
    journey_id: 'welcome',
    version: 1,
    definition: options.definition ?? welcomeJourney(),
    created_at: head.created_at,
  });
  const consume = runJourneys({ journeys, runner, ledgers: { ledger: async (_app, profileId) => options.ledgers?.[profileId] }, now, realNow: now });
  const timers = runJourneyTimers({ journeys, runner, appTime: now, aheadMs: () => 0, now });
  const delivered = () => sends.filter((request) => claimed.has(request.messageId));
  const events = (name: string) =>
    stream
      .entries()
      .map((entry) => decodeEnvelope(entry.data))
      .filter((envelope) => envelope.record.event === name);
  return {
    journeys,
    stream,
    sends,
    failSends,
    consume,
    timers,
    events,
    uniqueSends: () => [...new Set(delivered().map((request) => request.messageId))].map((id) => sends.find((request) => request.messageId === id)!),
    move: (ms: number) => {
      clock += ms;
    },
    now,
  };
}

let seq = 0;
function eventItem(profileId: string, event: string, at: Date, properties: Record<string, unknown> = {}, insertId = `ins-${++seq}`): StreamItem {
  seq++;
  return {
    shardId: 'shardId-0',
    sequenceNumber: String(seq).padStart(10, '0'),
    envelope: {
      v: 1,
      kind: 'event',
      received_at: at.toISOString(),
      record: { app_id: APP, profile_id: profileId, event, urm_insert_id: insertId, ...properties },
    },
  };
}

describe('the journeys consumer', () => {
  test('a first deposit enters the welcome journey and sends its email once, even when the batch is delivered twice', async () => {
    const w = world();
    const batch = [eventItem('ada', 'Deposit', w.now(), { amount: 10 })];

    const first = await w.consume(batch);
    const second = await w.consume(batch);

    expect(first.failed).toEqual([]);
    expect(second.failed).toEqual([]);
    expect(w.sends.map((request) => [request.templateId, request.campaign])).toEqual([
      ['welcome', { kind: 'journey', id: 'welcome', step: 'welcome', version: 1 }],
    ]);
    expect(w.events(JOURNEY_ENTERED_EVENT)).toHaveLength(1);
    expect(await w.journeys.occupancyOf(APP, 'welcome')).toEqual({ '1/wait-2d': 1 });
  });

  test('a deposit is not a first deposit when the ledger names an earlier one', async () => {
    const ledger = { first_deposit: { day: '2026-01-01', amount: '5', insert_id: 'older', urm_date_time: '2026-01-01T00:00:00Z' } } as StoredLedger;
    const w = world({ ledgers: { ada: ledger } });

    await w.consume([eventItem('ada', 'Deposit', w.now())]);

    expect(w.sends).toEqual([]);
    expect(w.events(JOURNEY_ENTERED_EVENT)).toEqual([]);
  });

  test('only the first of two deposits in one batch is the first deposit', async () => {
    const w = world();

    await w.consume([eventItem('ada', 'Deposit', w.now()), eventItem('ada', 'Deposit', w.now())]);

    expect(w.events(JOURNEY_ENTERED_EVENT)).toHaveLength(1);
    // The second deposit is the goal: the player converts and leaves.
    expect(w.events(JOURNEY_CONVERTED_EVENT)).toHaveLength(1);
    expect(await w.journeys.occupancyOf(APP, 'welcome')).toEqual({});
  });

  test('a paused journey takes nobody in', async () => {
    const w = world({ status: 'paused' });

    await w.consume([eventItem('ada', 'Deposit', w.now())]);

    expect(w.sends).toEqual([]);
  });

  test('an event entry with a property condition enters only on a matching event, once ever by default', async () => {
    const w = world({
      definition: {
        entry: { event: 'Login', where: [{ property: 'country', op: 'equals', value: 'MT' }] },
        steps: [{ id: 'hello', type: 'send', channel: 'email', template_id: 'hi' }],
      },
    });

    await w.consume([eventItem('ada', 'Login', w.now(), { country: 'DE' })]);
    await w.consume([eventItem('ada', 'Login', w.now(), { country: 'MT' })]);
    await w.consume([eventItem('ada', 'Login', w.now(), { country: 'MT' })]);

    expect(w.sends).toHaveLength(1);
    expect(w.events(JOURNEY_EXITED_EVENT).map((envelope) => envelope.record.reason)).toEqual(['completed']);
  });

  test('an API trigger enters only the journey it names, with its data as the event', async () => {
    const w = world({ definition: { entry: { api: true }, steps: [{ id: 'hello', type: 'send', channel: 'email', template_id: 'hi' }] } });

    await w.consume([eventItem('ada', 'Login', w.now())]);
    await w.consume([eventItem('ada', 'urm_journey_triggered', w.now(), { journey_id: 'other', data: {} })]);
    await w.consume([eventItem('ada', 'urm_journey_triggered', w.now(), { journey_id: 'welcome', data: { bonus: 'B10' } })]);

    expect(w.sends.map((request) => request.data)).toEqual([{ bonus: 'B10' }]);
  });

  test('a send that fails leaves the player to be retried, and the retry sends under the same message id', async () => {
    const w = world();
    const batch = [eventItem('ada', 'Deposit', w.now())];
    w.failSends.next = 1;

    const failed = await w.consume(batch);
    const retried = await w.consume(batch);

    expect(failed.failed).toEqual([batch[0].sequenceNumber]);
    expect(retried.failed).toEqual([]);
    expect(new Set(w.sends.map((request) => request.messageId)).size).toBe(1);
    expect(w.uniqueSends()).toHaveLength(1);
  });
});

describe('the journey timers', () => {
  test('after two days a player without a second deposit gets the push, once, however often the timer runs', async () => {
    const w = world();
    await w.consume([eventItem('ada', 'Deposit', w.now())]);

    w.move(DAY);
    await w.timers();
    expect(w.sends.map((request) => request.templateId)).toEqual(['welcome']);
    w.move(DAY);
    await w.timers();
    await w.timers();

    expect(w.sends.map((request) => request.templateId)).toEqual(['welcome', 'come-back']);
    expect(w.events(JOURNEY_EXITED_EVENT).map((envelope) => envelope.record.reason)).toEqual(['completed']);
    expect(await w.journeys.occupancyOf(APP, 'welcome')).toEqual({});
  });

  test('a player with a second deposit converts and gets no push', async () => {
    const w = world();
    await w.consume([eventItem('ada', 'Deposit', w.now())]);
    w.move(DAY);
    await w.consume([eventItem('ada', 'Deposit', w.now())]);

    w.move(DAY);
    await w.timers();

    expect(w.sends.map((request) => request.templateId)).toEqual(['welcome']);
    expect(w.events(JOURNEY_CONVERTED_EVENT).map((envelope) => envelope.record.goal_event)).toEqual(['Deposit']);
  });

  test('an entry whose run died before its first move is finished by the timer after the entry lease', async () => {
    const w = world();
    w.failSends.next = 1;
    await w.consume([eventItem('ada', 'Deposit', w.now())]);

    w.move(61_000);
    const counts = await w.timers();

    expect(counts.taken).toBe(1);
    expect(w.uniqueSends().map((request) => request.templateId)).toEqual(['welcome']);
    expect(await w.journeys.occupancyOf(APP, 'welcome')).toEqual({ '1/wait-2d': 1 });
  });

  test('a timer of a paused journey is held, not moved', async () => {
    const w = world();
    await w.consume([eventItem('ada', 'Deposit', w.now())]);
    const head = (await w.journeys.get(APP, 'welcome'))!;
    await w.journeys.update({ ...head, status: 'paused', revision: head.revision + 1 }, head.revision);

    w.move(2 * DAY);
    const counts = await w.timers();

    expect(counts.held).toBe(1);
    expect(w.sends.map((request) => request.templateId)).toEqual(['welcome']);
  });

  test('reads only the due index: no timer due, one query per shard and nothing else', async () => {
    const w = world();
    await w.consume([eventItem('ada', 'Deposit', w.now())]);
    const before = { ...w.journeys.calls };

    await w.timers();

    expect(w.journeys.calls.due - (before.due ?? 0)).toBe(4);
    expect(w.journeys.calls.lease).toBe(before.lease);
    expect(w.journeys.calls.move).toBe(before.move);
  });
});
