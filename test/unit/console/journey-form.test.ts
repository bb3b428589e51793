/** The journey editor's form state (functions/console/ui/journey-draft.ts) and a journey in words (journey-sentences.ts). */
import { describe, expect, test } from '@jest/globals';
import { checkJourney, type JourneyDefinition } from '../../../functions/domain/journeys/definition';
import { definitionOf, draftOf, emptyDraft, moveStep, removeStep, renameStep, withStep } from '../../../functions/console/ui/journey-draft';
import { entryWords, goalWords, journeyOutline, reentryWords, stepSentence } from '../../../functions/console/ui/journey-sentences';
import { welcomeJourney } from '../../support/journeys';

const made = (draft: ReturnType<typeof emptyDraft>): JourneyDefinition => {
  const result = definitionOf(draft);
  if (!('definition' in result)) throw new Error(result.problems.join('; '));
  return result.definition;
};

describe('the form state', () => {
  test('every kind of step survives the round trip from a definition to the form and back', () => {
    const definition = checkJourney({
      entry: {
        event: 'Registration',
        where: [
          { property: 'country', op: 'in', value: ['MT', 'IE'] },
          { property: 'bonus', op: 'exists' },
        ],
      },
      audience: { reachable: 'email' },
      reentry: { every_days: 30 },
      goal: { event: 'Deposit', within_days: 7 },
      steps: [
        { id: 'split', type: 'split', branches: [{ percent: 90, next: 'welcome' }], holdout_percent: 10 },
        { id: 'welcome', type: 'send', channel: 'email', template_id: 'welcome', purpose: 'marketing', topic: 'promotions', next: 'evening' },
        { id: 'evening', type: 'wait_until', local_time: '18:00', weekdays: ['fri', 'sat'], next: 'deposit' },
        { id: 'deposit', type: 'wait_for_event', event: 'Deposit', timeout: { days: 2, hours: 3 }, on_event: 'tag', on_timeout: 'check' },
        { id: 'check', type: 'branch', condition: { lifecycle: 'deposit_count', op: 'gte', value: 2 }, then: 'done', else: 'pause' },
        { id: 'pause', type: 'wait', duration: { minutes: 90 }, next: 'done' },
        { id: 'tag', type: 'set_attributes', attributes: { vip: true, tier: 'gold', level: 3 }, next: 'done' },
        { id: 'done', type: 'exit' },
      ],
    });

    const again = made(draftOf('Registration series', definition));

    expect(again).toEqual(definition);
  });

  test('a number that is not one is sent as typed, for the server to name its path', () => {
    const draft = withStep(emptyDraft(), 'wait');
    draft.steps[0].days = 'two';

    const sent = made(draft);

    expect(sent.steps[0]).toEqual({ id: 'wait', type: 'wait', duration: { days: 'two' } });
    expect(() => checkJourney(sent)).toThrow();
  });

  test('a condition that is not JSON keeps the journey from being sent, naming where it is', () => {
    const draft = withStep(withStep(emptyDraft(), 'branch'), 'exit');
    draft.audience = '{"reachable": ';
    draft.steps[0].condition = 'nope';

    const result = definitionOf(draft);

    expect('problems' in result && result.problems.map((problem) => problem.replace(/:.*/, ''))).toEqual([
      'audience is not valid JSON',
      'steps[0].condition is not valid JSON',
    ]);
  });

  test('steps added one after another make a path; their ids are fresh', () => {
    const draft = withStep(withStep(withStep(emptyDraft(), 'send'), 'wait'), 'send');

    expect(draft.steps.map((step) => [step.id, step.next])).toEqual([
      ['send', 'wait'],
      ['wait', 'send-2'],
      ['send-2', ''],
    ]);
  });

  test('renaming a step renames the ways on to it; removing one clears them; moving swaps neighbours', () => {
    const draft = withStep(withStep(withStep(emptyDraft(), 'send'), 'wait'), 'exit');

    const renamed = renameStep(draft.steps, 1, 'wait-2d');
    const removed = removeStep(renamed, 1);
    const moved = moveStep(renamed, 0, 1);

    expect(renamed[0].next).toBe('wait-2d');
    expect(removed.map((step) => [step.id, step.next])).toEqual([
      ['send', ''],
      ['exit', ''],
    ]);
    expect(moved.map((step) => step.id)).toEqual(['wait-2d', 'send', 'exit']);
    expect(moveStep(renamed, 0, -1).map((step) => step.id)).toEqual(['send', 'wait-2d', 'exit']);
  });
});

describe('a journey in words', () => {
  test('the acceptance journey reads as a CRM manager says it', () => {
    const journey = welcomeJourney();

    expect(journeyOutline(journey).map((line) => `${line.label}: ${line.text}`)).toEqual([
      'Entry: On the first deposit',
      'Audience: Every player',
      'Re-entry: Once ever',
      'Goal: Converts on a deposit',
    ]);
    expect(journey.steps.map((step) => stepSentence(step))).toEqual([
      { text: 'Send the email template “welcome” (marketing)', then: [{ to: 'wait-2d' }] },
      { text: 'Wait 2 days', then: [{ to: 'second-deposit' }] },
      {
        text: 'Check the player now',
        condition: { text: 'Deposits made are at least 2' },
        then: [
          { when: 'If so', to: 'done' },
          { when: 'Else', to: 'nudge' },
        ],
      },
      { text: 'Send the push template “come-back” (marketing)', then: [{ to: undefined }] },
      { text: 'Exit the journey', then: [] },
    ]);
  });

  test.each([
    [{ event: 'Login', where: [{ property: 'amount', op: 'gte', value: 100 }] }, 'On the event Login where amount is at least 100'],
    [{ segment_entered: 'vip' }, 'On entering the segment vip'],
    [{ api: true }, 'When triggered through the API'],
  ] as const)('the entry %j reads “%s”', (entry, words) => {
    expect(entryWords(entry as never)).toBe(words);
  });

  test('re-entry, goal, and the waits read in words', () => {
    expect([reentryWords('always'), reentryWords({ every_days: 1 }), goalWords({ event: 'Purchase', within_days: 7 })]).toEqual([
      'Every time',
      'Once per 1 day',
      'Converts on the event Purchase within 7 days',
    ]);
    expect(stepSentence({ id: 'w', type: 'wait_until', local_time: '18:00', weekdays: ['sat'], next: 'x' }).text).toBe(
      "Wait until 18:00 on Saturday, the player's local time",
    );
    expect(stepSentence({ id: 'w', type: 'wait_for_event', event: 'Bet', timeout: { hours: 1, minutes: 30 }, on_event: 'a', on_timeout: 'b' }).text).toBe(
      'Wait up to 1 hour 30 minutes for the event Bet',
    );
  });
});
