import { describe, expect, test } from '@jest/globals';
import {
  applyAction,
  begin,
  broadcastMessageId,
  finish,
  heldOut,
  newBroadcast,
  recipientDue,
  sendable,
  startAt,
  validCreateBroadcast,
  zonedInstant,
  type Broadcast,
  type CreateBroadcast,
} from '../../../functions/domain/broadcasts';
import { Conflict, ValidationError } from '../../../functions/domain/errors';

const now = new Date('2026-03-10T12:00:00.000Z');
const input = (change: Partial<CreateBroadcast> = {}): CreateBroadcast => ({
  name: 'Spring reload',
  template_id: 'spring',
  segment_id: 'vips',
  purpose: 'marketing',
  schedule: { kind: 'now' },
  ...change,
});
const draft = (change: Partial<CreateBroadcast> = {}): Broadcast => newBroadcast('app1', validCreateBroadcast(input(change)), 'user:u1', now, 'x1y2');

function problemsOf(run: () => unknown): string[] {
  try {
    run();
    return [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.errors;
  }
}

describe('a new broadcast', () => {
  test('is a draft with zero counts, an id made from its name, and no holdout unless asked', () => {
    const broadcast = draft();

    expect(broadcast).toMatchObject({ broadcast_id: 'spring-reload-x1y2', status: 'draft', holdout_percent: 0, snapshot: { done: false } });
    expect(broadcast.counts).toEqual({ entered: 0, held_out: 0, sent: 0, suppressed: {}, deferred: 0, failed: 0 });
  });

  test.each([
    ['a holdout over 50 percent', { holdout_percent: 51 }],
    ['an unknown purpose', { purpose: 'promo' }],
    ['a schedule kind that does not exist', { schedule: { kind: 'later' } }],
    ['a local time that is not HH:MM', { schedule: { kind: 'local', day: '2026-03-11', time: '25:00' } }],
    ['an unknown field', { colour: 'red' }],
  ])('refuses %s', (_name, change) => {
    expect(problemsOf(() => validCreateBroadcast({ ...input(), ...change })).length).toBeGreaterThan(0);
  });

  test('refuses a set time in the past and one more than a year ahead', () => {
    expect(problemsOf(() => draft({ schedule: { kind: 'at', at: '2026-03-10T11:59:00Z' } }))).toEqual(['schedule.at must be in the future']);
    expect(problemsOf(() => draft({ schedule: { kind: 'at', at: '2027-06-01T00:00:00Z' } }))).toEqual(['schedule.at must be within 366 days']);
  });

  test('refuses a local time every zone has passed, and accepts one some zone has still ahead', () => {
    expect(problemsOf(() => draft({ schedule: { kind: 'local', day: '2026-03-09', time: '18:00' } }))).toEqual([
      'schedule.day and time must be in the future somewhere',
    ]);
    expect(problemsOf(() => draft({ schedule: { kind: 'local', day: '2026-03-10', time: '18:00' } }))).toEqual([]);
  });

  test('refuses a day that is not on the calendar', () => {
    expect(problemsOf(() => draft({ schedule: { kind: 'local', day: '2026-02-30', time: '18:00' } }))).toEqual(['schedule.day must be a calendar day']);
  });
});

describe('local time', () => {
  test('18:00 in Berlin in winter is 17:00 UTC, and in summer 16:00 UTC', () => {
    expect(zonedInstant('2026-01-15', '18:00', 'Europe/Berlin').toISOString()).toBe('2026-01-15T17:00:00.000Z');
    expect(zonedInstant('2026-07-15', '18:00', 'Europe/Berlin').toISOString()).toBe('2026-07-15T16:00:00.000Z');
  });

  test('a local broadcast starts when the first zone (UTC+14) reaches the time', () => {
    expect(startAt({ kind: 'local', day: '2026-03-11', time: '18:00' }, now).toISOString()).toBe('2026-03-11T04:00:00.000Z');
  });

  test("each recipient is due at the time in the player's zone, or now when that has passed", () => {
    const schedule = { kind: 'local', day: '2026-03-10', time: '18:00' } as const;

    expect(recipientDue(schedule, 'America/New_York', now).toISOString()).toBe('2026-03-10T22:00:00.000Z');
    expect(recipientDue(schedule, 'Asia/Tokyo', now).toISOString()).toBe(now.toISOString());
  });

  test('a broadcast now or at a set time is due for every recipient when it starts', () => {
    expect(recipientDue({ kind: 'now' }, 'Asia/Tokyo', now)).toEqual(now);
    expect(startAt({ kind: 'at', at: '2026-03-12T09:00:00Z' }, now).toISOString()).toBe('2026-03-12T09:00:00.000Z');
  });
});

describe('the states', () => {
  test('draft → scheduled → running ⇄ paused → done', () => {
    const scheduled = applyAction(draft(), 'start', now);
    const running = begin(scheduled, now);
    const paused = applyAction(running, 'pause', now);
    const resumed = applyAction(paused, 'resume', now);

    expect([scheduled.status, running.status, paused.status, resumed.status, finish(resumed, now).status]).toEqual([
      'scheduled',
      'running',
      'paused',
      'running',
      'done',
    ]);
    expect(scheduled.start_at).toBe(now.toISOString());
  });

  test('a broadcast paused before it began resumes as scheduled', () => {
    const paused = applyAction(applyAction(draft(), 'start', now), 'pause', now);

    expect(applyAction(paused, 'resume', now).status).toBe('scheduled');
  });

  test.each(['draft', 'scheduled', 'running', 'paused'] as const)('a %s broadcast can be cancelled', (status) => {
    expect(applyAction({ ...draft(), status }, 'cancel', now).status).toBe('cancelled');
  });

  test.each([
    ['done', 'cancel'],
    ['cancelled', 'resume'],
    ['running', 'start'],
    ['draft', 'pause'],
    ['running', 'resume'],
  ] as const)('a %s broadcast cannot %s', (status, action) => {
    expect(() => applyAction({ ...draft(), status }, action, now)).toThrow(Conflict);
  });

  test('only a scheduled or running broadcast whose start time has come is sent', () => {
    const scheduled = applyAction(draft({ schedule: { kind: 'at', at: '2026-03-10T13:00:00Z' } }), 'start', now);

    expect(sendable(scheduled, now)).toBe(false);
    expect(sendable(scheduled, new Date('2026-03-10T13:00:00Z'))).toBe(true);
    expect(sendable({ ...scheduled, status: 'paused' }, new Date('2026-03-10T13:00:00Z'))).toBe(false);
  });
});

describe('holdout and message ids', () => {
  test('the holdout is the same for the same broadcast and player, and about the percent asked', () => {
    const players = Array.from({ length: 4000 }, (_, i) => `p${i}`);
    const held = players.filter((id) => heldOut('spring', id, 10));

    expect(players.filter((id) => heldOut('spring', id, 10))).toEqual(held);
    expect(held.length).toBeGreaterThan(320);
    expect(held.length).toBeLessThan(480);
    expect(players.some((id) => heldOut('spring', id, 0))).toBe(false);
  });

  test('a message id is the same for the same broadcast and player, and differs across them', () => {
    expect(broadcastMessageId('app1', 'b1', 'p1')).toBe(broadcastMessageId('app1', 'b1', 'p1'));
    expect(new Set([broadcastMessageId('app1', 'b1', 'p1'), broadcastMessageId('app1', 'b2', 'p1'), broadcastMessageId('app1', 'b1', 'p2')]).size).toBe(3);
  });
});
