import { describe, expect, test } from '@jest/globals';
import { checkJourney, type JourneyDefinition } from '../../../functions/domain/journeys/definition';
import {
  advance,
  entryMatches,
  eventProperties,
  mayEnter,
  messageIdOf,
  newInstance,
  nextLocalTime,
  shouldEnter,
  splitBucket,
  type JourneyAction,
  type JourneyInstance,
  type JourneyVersion,
} from '../../../functions/domain/journeys/engine';
import { journeyEvent, money, playerFacts, version, welcomeJourney } from '../../support/journeys';

const ENTERED = '2026-11-26T10:00:00.000Z';
const TWO_DAYS_LATER = '2026-11-28T10:00:00.000Z';

const sends = (actions: JourneyAction[]) => actions.flatMap((action) => ('send' in action ? [action.send] : []));
const timers = (actions: JourneyAction[]) => actions.flatMap((action) => ('timer' in action ? [action.timer.at] : []));

/** A player entered into the journey by their first deposit, and the actions of that entry. */
function enter(journey: JourneyVersion, profileId = 'p-1', at = ENTERED) {
  const deposit = journeyEvent('Deposit', at, { amount: '50.00', currency: 'EUR' }, { firstDeposit: true });
  const start = newInstance(journey, profileId, deposit);
  return { deposit, start, ...advance(journey, start, { kind: 'entered', event: deposit }, playerFacts(at, { deposits: 1 })) };
}

describe('the acceptance journey: first deposit → welcome email now → wait 2 days → if no second deposit, push', () => {
  const journey = version(checkJourney(welcomeJourney({ event: 'Purchase' })));

  test('the first deposit sends the welcome email at once and sets a timer for exactly 2 days later', () => {
    const { instance, actions } = enter(journey);

    expect(sends(actions)).toEqual([
      { stepId: 'welcome', channel: 'email', template_id: 'welcome', purpose: 'marketing', messageId: expect.stringMatching(/^urm-j-/) },
    ]);
    expect(timers(actions)).toEqual([TWO_DAYS_LATER]);
    expect(instance).toMatchObject({ stepId: 'wait-2d', waitingUntil: TWO_DAYS_LATER, enteredAt: ENTERED });
    expect(instance.done).toBeUndefined();
  });

  test('a player with one deposit gets the push when the 2 days are up, and the journey ends', () => {
    const { instance } = enter(journey);

    const due = advance(journey, instance, { kind: 'timer', at: TWO_DAYS_LATER }, playerFacts(TWO_DAYS_LATER, { deposits: 1 }));

    expect(sends(due.actions)).toEqual([{ stepId: 'nudge', channel: 'push', template_id: 'come-back', purpose: 'marketing', messageId: expect.any(String) }]);
    expect(due.actions).toContainEqual({ exit: 'completed' });
    expect(due.instance.done).toEqual({ reason: 'completed', at: TWO_DAYS_LATER });
  });

  test('a player who deposited twice within the 2 days gets no push', () => {
    const { instance } = enter(journey);

    const due = advance(journey, instance, { kind: 'timer', at: TWO_DAYS_LATER }, playerFacts(TWO_DAYS_LATER, { deposits: 2 }));

    expect(sends(due.actions)).toEqual([]);
    expect(due.actions).toEqual([{ exit: 'exit_step' }]);
  });

  test('a timer a moment early does nothing; the wait holds', () => {
    const { instance } = enter(journey);

    const early = advance(journey, instance, { kind: 'timer', at: '2026-11-28T09:59:59.999Z' }, playerFacts('2026-11-28T09:59:59.999Z', { deposits: 1 }));

    expect(early).toEqual({ instance, actions: [] });
  });

  test('a timer late by a minute still waits counted from the due time, not from when it ran', () => {
    const chained = version(
      checkJourney({
        entry: { first_deposit: true },
        steps: [
          { id: 'one', type: 'wait', duration: { hours: 1 }, next: 'two' },
          { id: 'two', type: 'wait', duration: { hours: 1 } },
        ],
      }),
      'chained',
    );
    const { instance } = enter(chained);

    const late = advance(chained, instance, { kind: 'timer', at: '2026-11-26T11:01:00.000Z' }, playerFacts('2026-11-26T11:01:00.000Z'));

    expect(timers(late.actions)).toEqual(['2026-11-26T12:00:00.000Z']);
  });
});

describe('the goal ends the journey as a conversion', () => {
  test('by default a second deposit converts, and no push follows', () => {
    const journey = version(checkJourney(welcomeJourney()));
    const { instance } = enter(journey);
    const second = journeyEvent('Deposit', '2026-11-27T08:00:00.000Z', { amount: '20.00' });

    const converted = advance(journey, instance, { kind: 'event', event: second }, playerFacts(second.at, { deposits: 2 }));
    const timerLater = advance(journey, converted.instance, { kind: 'timer', at: TWO_DAYS_LATER }, playerFacts(TWO_DAYS_LATER, { deposits: 2 }));

    expect(converted.actions).toEqual([{ converted: { event: 'Deposit', insertId: second.insertId, at: second.at } }, { exit: 'converted' }]);
    expect(converted.instance.done?.reason).toBe('converted');
    expect(timerLater.actions).toEqual([]);
  });

  test('the entry event itself is never the conversion, even redelivered as an event', () => {
    const journey = version(checkJourney(welcomeJourney()));
    const { instance, deposit } = enter(journey);

    expect(advance(journey, instance, { kind: 'event', event: deposit }, playerFacts(ENTERED, { deposits: 1 })).actions).toEqual([]);
  });

  test('a goal event after its window is no conversion', () => {
    const journey = version(checkJourney(welcomeJourney({ event: 'Purchase', within_days: 1 })));
    const { instance } = enter(journey);
    const within = journeyEvent('Purchase', '2026-11-27T09:59:59.000Z');
    const after = journeyEvent('Purchase', '2026-11-27T10:00:00.000Z');

    expect(advance(journey, instance, { kind: 'event', event: within }, playerFacts(within.at)).instance.done?.reason).toBe('converted');
    expect(advance(journey, instance, { kind: 'event', event: after }, playerFacts(after.at)).actions).toEqual([]);
  });

  test('an event that is neither the goal nor awaited changes nothing', () => {
    const journey = version(checkJourney(welcomeJourney()));
    const { instance } = enter(journey);

    expect(advance(journey, instance, { kind: 'event', event: journeyEvent('Bet', ENTERED) }, playerFacts(ENTERED))).toEqual({ instance, actions: [] });
  });
});

describe('exactly once: ids are derived, never random', () => {
  const journey = version(checkJourney(welcomeJourney({ event: 'Purchase' })));

  test('the same input on the same state twice gives the same actions with the same message ids', () => {
    const { start, deposit } = enter(journey);
    const facts = playerFacts(ENTERED, { deposits: 1 });

    const first = advance(journey, start, { kind: 'entered', event: deposit }, facts);
    const again = advance(journey, start, { kind: 'entered', event: deposit }, facts);

    expect(again).toEqual(first);
  });

  test('an input redelivered after its state was saved does nothing more', () => {
    const { instance, deposit } = enter(journey);
    const due = advance(journey, instance, { kind: 'timer', at: TWO_DAYS_LATER }, playerFacts(TWO_DAYS_LATER, { deposits: 1 }));

    expect(advance(journey, instance, { kind: 'entered', event: deposit }, playerFacts(ENTERED)).actions).toEqual([]);
    expect(advance(journey, due.instance, { kind: 'timer', at: TWO_DAYS_LATER }, playerFacts(TWO_DAYS_LATER)).actions).toEqual([]);
  });

  test('the message id is the hash of journey, version, player, entry and step: each differs when one does', () => {
    const { instance } = enter(journey);
    const ids = [
      messageIdOf(instance, 'welcome'),
      messageIdOf({ ...instance, journeyId: 'other' }, 'welcome'),
      messageIdOf({ ...instance, version: 2 }, 'welcome'),
      messageIdOf({ ...instance, profileId: 'p-2' }, 'welcome'),
      messageIdOf({ ...instance, entryId: 'another-entry' }, 'welcome'),
      messageIdOf(instance, 'nudge'),
    ];

    expect(new Set(ids).size).toBe(ids.length);
    expect(sends(enter(journey).actions)[0].messageId).not.toBe(ids[0]); // another deposit event: another entry
    expect(messageIdOf(structuredClone(instance), 'welcome')).toBe(ids[0]);
  });

  test('a loop that waits sends again on its next pass, under a message id of its own', () => {
    const reminders = version(
      checkJourney({
        entry: { first_deposit: true },
        goal: { event: 'Purchase' },
        steps: [
          { id: 'remind', type: 'send', channel: 'push', template_id: 'remind', next: 'day' },
          { id: 'day', type: 'wait', duration: { days: 1 }, next: 'check' },
          { id: 'check', type: 'branch', condition: { lifecycle: 'deposit_count', op: 'gte', value: 2 }, then: 'bye', else: 'remind' },
          { id: 'bye', type: 'exit' },
        ],
      }),
      'reminders',
    );
    const { instance, actions } = enter(reminders);

    const next = advance(reminders, instance, { kind: 'timer', at: '2026-11-27T10:00:00.000Z' }, playerFacts('2026-11-27T10:00:00.000Z', { deposits: 1 }));

    expect(sends(next.actions)).toHaveLength(1);
    expect(sends(next.actions)[0].messageId).not.toBe(sends(actions)[0].messageId);
    expect(timers(next.actions)).toEqual(['2026-11-28T10:00:00.000Z']);
  });

  test('set_attributes carries a derived insert id, so the stream takes it once', () => {
    const tagging = version(
      checkJourney({ entry: { first_deposit: true }, steps: [{ id: 'tag', type: 'set_attributes', attributes: { welcomed: true } }] }),
      'tagging',
    );
    const { start, deposit, actions } = enter(tagging);

    expect(actions[0]).toEqual({ set_attributes: { stepId: 'tag', attributes: { welcomed: true }, insertId: expect.stringMatching(/^urm-j-/) } });
    expect(advance(tagging, start, { kind: 'entered', event: deposit }, playerFacts(ENTERED)).actions).toEqual(actions);
  });
});

describe('versions', () => {
  test('a player in flight keeps the version entered, though the journey has a newer one', () => {
    const v1 = version(checkJourney(welcomeJourney({ event: 'Purchase' })), 'welcome', 1);
    const edited = welcomeJourney({ event: 'Purchase' });
    edited.steps[3] = { id: 'nudge', type: 'send', channel: 'email', template_id: 'come-back-v2' };
    const v2 = version(checkJourney(edited), 'welcome', 2);
    const { instance } = enter(v1);

    const due = advance(v1, instance, { kind: 'timer', at: TWO_DAYS_LATER }, playerFacts(TWO_DAYS_LATER, { deposits: 1 }));

    expect(due.instance.version).toBe(1);
    expect(sends(due.actions)).toEqual([expect.objectContaining({ channel: 'push', template_id: 'come-back' })]);
    expect(() => advance(v2, instance, { kind: 'timer', at: TWO_DAYS_LATER }, playerFacts(TWO_DAYS_LATER))).toThrow('advanced with welcome v2');
    expect(enter(v2).instance.version).toBe(2);
  });
});

describe('wait_until: the next local time on an allowed weekday, in the player’s zone', () => {
  test.each([
    ['later the same day', '2026-11-27T08:00:00.000Z', '09:00', 'UTC', undefined, '2026-11-27T09:00:00.000Z'],
    ['exactly at the time: the next day', '2026-11-27T09:00:00.000Z', '09:00', 'UTC', undefined, '2026-11-28T09:00:00.000Z'],
    ['a Friday waiting for Monday', '2026-11-27T10:00:00.000Z', '09:00', 'UTC', ['mon'], '2026-11-30T09:00:00.000Z'],
    ['a Monday morning waiting for Monday 09:00: today', '2026-11-30T08:00:00.000Z', '09:00', 'UTC', ['mon'], '2026-11-30T09:00:00.000Z'],
    ['a Monday after 09:00 waiting for Monday: a week later', '2026-11-30T09:30:00.000Z', '09:00', 'UTC', ['mon'], '2026-12-07T09:00:00.000Z'],
    ['across spring forward: 09:00 CEST is 07:00Z', '2026-03-28T20:00:00.000Z', '09:00', 'Europe/Malta', undefined, '2026-03-29T07:00:00.000Z'],
    ['across fall back: 09:00 CET is 08:00Z', '2026-10-24T20:00:00.000Z', '09:00', 'Europe/Malta', undefined, '2026-10-25T08:00:00.000Z'],
    ['a time the clock skips: at the jump', '2026-03-28T20:00:00.000Z', '02:30', 'Europe/Malta', undefined, '2026-03-29T01:00:00.000Z'],
    ['west of UTC, the local day not yet the UTC day', '2026-11-28T03:00:00.000Z', '18:00', 'America/New_York', ['fri'], '2026-12-04T23:00:00.000Z'],
    ['18:00 local on a Friday in New York is Saturday in UTC', '2026-11-27T20:00:00.000Z', '18:00', 'America/New_York', ['fri'], '2026-11-27T23:00:00.000Z'],
  ] as const)('%s', (_, from, time, zone, days, expected) => {
    expect(nextLocalTime(new Date(from), time, zone, days).toISOString()).toBe(expected);
  });

  test('the step reads the player’s urm_timezone, else the application’s zone', () => {
    const evening = version(
      checkJourney({
        entry: { first_deposit: true },
        steps: [
          { id: 'evening', type: 'wait_until', local_time: '18:00', next: 'mail' },
          { id: 'mail', type: 'send', channel: 'email', template_id: 'x' },
        ],
      }),
      'evening',
    );
    const deposit = journeyEvent('Deposit', ENTERED, {}, { firstDeposit: true });
    const start = newInstance(evening, 'p-1', deposit);
    const messaging = { time_zone: 'Europe/Malta' };

    const own = advance(evening, start, { kind: 'entered', event: deposit }, playerFacts(ENTERED, { attributes: { urm_timezone: 'Asia/Tokyo' }, messaging }));
    const app = advance(evening, start, { kind: 'entered', event: deposit }, playerFacts(ENTERED, { messaging }));

    expect(timers(own.actions)).toEqual(['2026-11-27T09:00:00.000Z']);
    expect(timers(app.actions)).toEqual(['2026-11-26T17:00:00.000Z']);
    const due = advance(evening, app.instance, { kind: 'timer', at: '2026-11-26T17:00:00.000Z' }, playerFacts('2026-11-26T17:00:00.000Z', { messaging }));
    expect(sends(due.actions)).toHaveLength(1);
  });
});

describe('wait_for_event', () => {
  const journey = version(
    checkJourney({
      entry: { event: 'Registration' },
      goal: { event: 'Purchase' },
      steps: [
        {
          id: 'listen',
          type: 'wait_for_event',
          event: 'Deposit',
          match_entry_property: 'brand',
          timeout: { hours: 24 },
          on_event: 'thanks',
          on_timeout: 'nudge',
        },
        { id: 'thanks', type: 'send', channel: 'email', template_id: 'thanks' },
        { id: 'nudge', type: 'send', channel: 'push', template_id: 'nudge' },
      ],
    }),
    'listen',
  );
  const registration = journeyEvent('Registration', ENTERED, { brand: 'north' });
  const start = newInstance(journey, 'p-1', registration);
  const { instance } = advance(journey, start, { kind: 'entered', event: registration }, playerFacts(ENTERED));

  test('the awaited event matching the entry’s property takes the on_event way', () => {
    const deposit = journeyEvent('Deposit', '2026-11-26T12:00:00.000Z', { brand: 'north' });

    const next = advance(journey, instance, { kind: 'event', event: deposit }, playerFacts(deposit.at));

    expect(sends(next.actions)).toEqual([expect.objectContaining({ stepId: 'thanks' })]);
  });

  test('the awaited event with another value of the property is not the one awaited', () => {
    const other = journeyEvent('Deposit', '2026-11-26T12:00:00.000Z', { brand: 'south' });

    expect(advance(journey, instance, { kind: 'event', event: other }, playerFacts(other.at)).actions).toEqual([]);
  });

  test('the timeout takes the on_timeout way, and a late event then changes nothing', () => {
    const timedOut = advance(journey, instance, { kind: 'timer', at: '2026-11-27T10:00:00.000Z' }, playerFacts('2026-11-27T10:00:00.000Z'));
    const late = journeyEvent('Deposit', '2026-11-27T11:00:00.000Z', { brand: 'north' });

    expect(sends(timedOut.actions)).toEqual([expect.objectContaining({ stepId: 'nudge' })]);
    expect(advance(journey, timedOut.instance, { kind: 'event', event: late }, playerFacts(late.at)).actions).toEqual([]);
  });
});

describe('split: deterministic per journey and player', () => {
  const definition: JourneyDefinition = checkJourney({
    entry: { first_deposit: true },
    goal: { event: 'Purchase' },
    steps: [
      {
        id: 'ab',
        type: 'split',
        branches: [
          { percent: 50, next: 'a' },
          { percent: 30, next: 'b' },
        ],
        holdout_percent: 20,
      },
      { id: 'a', type: 'send', channel: 'email', template_id: 'a' },
      { id: 'b', type: 'send', channel: 'email', template_id: 'b' },
    ],
  });
  const split = version(definition, 'split');
  const outcome = (profileId: string, journey = split) => {
    const { actions } = enter(journey, profileId);
    const sent = sends(actions)[0];
    return sent === undefined ? 'holdout' : sent.template_id;
  };

  test('a player lands in the same group on every entry and in every version', () => {
    const groups = ['p-1', 'p-2', 'p-3', 'p-4', 'p-5'].map((id) => outcome(id));

    expect(['p-1', 'p-2', 'p-3', 'p-4', 'p-5'].map((id) => outcome(id))).toEqual(groups);
    expect(['p-1', 'p-2', 'p-3', 'p-4', 'p-5'].map((id) => outcome(id, version(definition, 'split', 7)))).toEqual(groups);
  });

  test('10,000 players split 50/30/20 within ±2 points of each share', () => {
    const counts = { a: 0, b: 0, holdout: 0 };
    for (let i = 0; i < 10_000; i++) {
      const bucket = splitBucket('split', `player-${i}`, 'ab');
      counts[bucket < 5000 ? 'a' : bucket < 8000 ? 'b' : 'holdout']++;
    }

    expect(Math.abs(counts.a - 5000)).toBeLessThanOrEqual(200);
    expect(Math.abs(counts.b - 3000)).toBeLessThanOrEqual(200);
    expect(Math.abs(counts.holdout - 2000)).toBeLessThanOrEqual(200);
  });

  test('the engine sends each group its branch and records the holdout, who gets nothing', () => {
    const byGroup = new Map<string, JourneyAction[]>();
    for (let i = 0; byGroup.size < 3 && i < 1000; i++) {
      const profileId = `player-${i}`;
      const { actions } = enter(split, profileId);
      byGroup.set(outcome(profileId), actions);
    }

    expect(sends(byGroup.get('a')!)).toEqual([expect.objectContaining({ template_id: 'a' })]);
    expect(sends(byGroup.get('b')!)).toEqual([expect.objectContaining({ template_id: 'b' })]);
    expect(byGroup.get('holdout')).toEqual([{ holdout: { stepId: 'ab' } }, { exit: 'holdout' }]);
  });

  test('another journey splits the same players otherwise', () => {
    const here = Array.from({ length: 100 }, (_, i) => splitBucket('split', `player-${i}`, 'ab'));
    const there = Array.from({ length: 100 }, (_, i) => splitBucket('other', `player-${i}`, 'ab'));

    expect(here).not.toEqual(there);
  });
});

describe('entry', () => {
  const history = (entries: number, lastEnteredAt?: string, active = false) => ({ entries, lastEnteredAt, active });
  const now = new Date('2026-11-26T12:00:00.000Z');

  test.each([
    ['once: a first entry', undefined, history(0), true],
    ['once: never again', undefined, history(1, '2025-01-01T00:00:00.000Z'), false],
    ['every 7 days: 7 days after the last entry', { every_days: 7 }, history(3, '2026-11-19T12:00:00.000Z'), true],
    ['every 7 days: not a moment before', { every_days: 7 }, history(3, '2026-11-19T12:00:00.001Z'), false],
    ['always: again and again', 'always', history(9, '2026-11-26T11:59:00.000Z'), true],
    ['always: but not while in the journey', 'always', history(9, '2026-11-26T11:59:00.000Z', true), false],
  ] as const)('%s', (_, reentry, past, expected) => {
    const definition = { ...welcomeJourney(), ...(reentry === undefined ? {} : { reentry }) } as JourneyDefinition;

    expect(mayEnter(definition, past, now)).toBe(expected);
  });

  test('an event entry with a condition on its properties', () => {
    const entry = { event: 'Deposit', where: [{ property: 'amount', op: 'gte' as const, value: 100 }] };

    expect(entryMatches(entry, journeyEvent('Deposit', ENTERED, { amount: 150 }), money)).toBe(true);
    expect(entryMatches(entry, journeyEvent('Deposit', ENTERED, { amount: 99.5 }), money)).toBe(false);
    expect(entryMatches(entry, journeyEvent('Deposit', ENTERED, {}), money)).toBe(false);
    expect(entryMatches(entry, journeyEvent('Withdrawal', ENTERED, { amount: 150 }), money)).toBe(false);
  });

  test('the first deposit: a deposit the ledger takes as the first, not a later one nor another money kind', () => {
    const entry = { first_deposit: true as const };

    expect(entryMatches(entry, journeyEvent('Deposit', ENTERED, {}, { firstDeposit: true }), money)).toBe(true);
    expect(entryMatches(entry, journeyEvent('Deposit', ENTERED, {}), money)).toBe(false);
    expect(entryMatches(entry, journeyEvent('Bet', ENTERED, {}, { firstDeposit: true }), money)).toBe(false);
  });

  test('entering a segment, and an API journey only through its trigger', () => {
    expect(entryMatches({ segment_entered: 'vip' }, journeyEvent('urm_segment_entered', ENTERED, { segment_id: 'vip' }), money)).toBe(true);
    expect(entryMatches({ segment_entered: 'vip' }, journeyEvent('urm_segment_entered', ENTERED, { segment_id: 'lapsed' }), money)).toBe(false);
    expect(entryMatches({ api: true }, journeyEvent('urm_journey_trigger', ENTERED), money)).toBe(false);
    expect(shouldEnter({ entry: { api: true }, steps: welcomeJourney().steps }, 'api', history(0), playerFacts(ENTERED))).toBe(true);
    expect(shouldEnter(welcomeJourney(), 'api', history(0), playerFacts(ENTERED))).toBe(false);
  });

  test('the audience narrows who enters', () => {
    const definition = { ...welcomeJourney(), audience: { attribute: 'country', op: 'equals', value: 'MT' } } as JourneyDefinition;
    const deposit = journeyEvent('Deposit', ENTERED, {}, { firstDeposit: true });

    expect(shouldEnter(definition, deposit, history(0), playerFacts(ENTERED, { attributes: { country: 'MT' } }))).toBe(true);
    expect(shouldEnter(definition, deposit, history(0), playerFacts(ENTERED, { attributes: { country: 'IE' } }))).toBe(false);
  });
});

describe('an event’s properties', () => {
  test('are the record less its own fields and urm_ directives', () => {
    const record = {
      app_id: 'casino',
      profile_id: 'p-1',
      event: 'Deposit',
      urm_insert_id: 'i-1',
      urm_date_time: ENTERED,
      urm_set: { vip: true },
      amount: '50',
      currency: 'EUR',
    };

    expect(eventProperties(record)).toEqual({ amount: '50', currency: 'EUR' });
  });
});

describe('bounds', () => {
  test('a definition that skipped the check and loops without a wait stops at the step bound', () => {
    const looping = version({
      entry: { api: true },
      steps: [
        { id: 'a', type: 'branch', condition: { lifecycle: 'ftd' }, then: 'b', else: 'b' },
        { id: 'b', type: 'branch', condition: { lifecycle: 'ftd' }, then: 'a', else: 'a' },
      ],
    });
    const event = journeyEvent('urm_journey_trigger', ENTERED);
    const start: JourneyInstance = newInstance(looping, 'p-1', event);

    expect(advance(looping, start, { kind: 'entered', event }, playerFacts(ENTERED)).actions).toEqual([{ exit: 'step_bound' }]);
  });
});
