import { describe, expect, test } from '@jest/globals';
import { ValidationError } from '../../../functions/domain/errors';
import { checkJourney, journeyLimits, journeySchema, type JourneyDefinition } from '../../../functions/domain/journeys/definition';
import { compileValidator, type RequestSchema } from '../../../functions/domain/validation';
import { welcomeJourney } from '../../support/journeys';

/** The problems checkJourney names, or [] when it accepts. */
function problemsOf(input: unknown): string[] {
  try {
    checkJourney(input);
    return [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.errors;
  }
}

/** The welcome journey with its steps changed by `change`. */
function withSteps(change: (steps: Record<string, unknown>[]) => unknown[]): unknown {
  const journey = welcomeJourney() as unknown as { steps: Record<string, unknown>[] };
  return { ...journey, steps: change(structuredClone(journey.steps)) };
}

describe('a journey the check accepts', () => {
  test('the acceptance journey passes and comes back as given', () => {
    const journey = welcomeJourney({ within_days: 7 });

    expect(checkJourney(journey)).toEqual(journey);
  });

  test('every kind of entry, step and re-entry rule passes', () => {
    const journey = {
      entry: {
        event: 'Deposit',
        where: [
          { property: 'amount', op: 'gte', value: 100 },
          { property: 'method', op: 'in', value: ['card', 'sepa'] },
        ],
      },
      audience: { all: [{ attribute: 'country', op: 'in', value: ['MT', 'IE'] }, { reachable: 'email' }] },
      reentry: { every_days: 30 },
      goal: { event: 'Purchase', within_days: 14 },
      steps: [
        { id: 'evening', type: 'wait_until', local_time: '18:00', weekdays: ['mon', 'fri'], next: 'ab' },
        {
          id: 'ab',
          type: 'split',
          branches: [
            { percent: 45, next: 'mail' },
            { percent: 45, next: 'tag' },
          ],
          holdout_percent: 10,
        },
        { id: 'mail', type: 'send', channel: 'email', template_id: 'offer', purpose: 'marketing', topic: 'promotions', next: 'listen' },
        { id: 'tag', type: 'set_attributes', attributes: { offer_seen: true, tier: 'gold' }, next: 'listen' },
        { id: 'listen', type: 'wait_for_event', event: 'Bet', match_entry_property: 'currency', timeout: { hours: 12 }, on_event: 'bye', on_timeout: 'hook' },
        { id: 'hook', type: 'send', channel: 'webhook', template_id: 'crm-hook', purpose: 'transactional', next: 'bye' },
        { id: 'bye', type: 'exit' },
      ],
    };

    expect(problemsOf(journey)).toEqual([]);
    for (const entry of [{ first_deposit: true }, { segment_entered: 'vip' }, { api: true }]) expect(problemsOf({ ...journey, entry })).toEqual([]);
    for (const reentry of ['once', 'always']) expect(problemsOf({ ...journey, reentry })).toEqual([]);
  });

  test('a loop that waits is allowed: a reminder every day until the player deposits', () => {
    const journey = {
      entry: { api: true },
      steps: [
        { id: 'remind', type: 'send', channel: 'push', template_id: 'remind', next: 'day' },
        { id: 'day', type: 'wait', duration: { days: 1 }, next: 'check' },
        { id: 'check', type: 'branch', condition: { lifecycle: 'ftd' }, then: 'bye', else: 'remind' },
        { id: 'bye', type: 'exit' },
      ],
    };

    expect(problemsOf(journey)).toEqual([]);
  });

  test('the one schema accepts what the check accepts, conditions included', () => {
    const validWhole = compileValidator(journeySchema as RequestSchema, 'journey');

    expect(() => validWhole(welcomeJourney())).not.toThrow();
    expect(() => validWhole({ ...welcomeJourney(), audience: { attribute: 'country', op: 'nearly', value: 'MT' } })).toThrow(ValidationError);
  });
});

describe('what the check refuses, each problem by its path', () => {
  test.each<[string, unknown, string]>([
    ['no steps', { entry: { api: true }, steps: [] }, 'steps must hold at least 1 item'],
    ['no entry', { steps: welcomeJourney().steps }, 'entry is required'],
    ['an unknown top-level field', { ...welcomeJourney(), start: 'welcome' }, 'start is not allowed'],
    ['an entry of no known kind', { ...welcomeJourney(), entry: { on: 'Deposit' } }, 'entry must have one of event, first_deposit, segment_entered, api'],
    [
      'an entry condition op outside the subset',
      { ...welcomeJourney(), entry: { event: 'Deposit', where: [{ property: 'amount', op: 'starts_with', value: '1' }] } },
      'entry.where[0].op must be one of "equals", "not_equals", "lt", "lte", "gt", "gte", "in", "exists"',
    ],
    [
      'an entry condition without the value its op needs',
      { ...welcomeJourney(), entry: { event: 'Deposit', where: [{ property: 'amount', op: 'gte' }] } },
      'entry.where[0].value is required for gte',
    ],
    [
      'an entry condition whose in has one value, not a list',
      { ...welcomeJourney(), entry: { event: 'Deposit', where: [{ property: 'method', op: 'in', value: 'card' }] } },
      'entry.where[0].value must be a list for in',
    ],
    ['a re-entry period of zero days', { ...welcomeJourney(), reentry: { every_days: 0 } }, 'reentry.every_days must be >= 1'],
    [
      'an audience that is no condition',
      { ...welcomeJourney(), audience: { all: [{ attribute: 'country', op: 'nearly', value: 'MT' }] } },
      'audience.all[0].op must be one of "equals", "not_equals", "lt", "lte", "gt", "gte", "in", "not_in", "exists", "not_exists", "contains", "starts_with"',
    ],
    [
      'a step id with capitals',
      withSteps((steps) => [{ ...steps[0], id: 'Welcome' }, ...steps.slice(1)]),
      'steps[0].id must be a step id: 1 to 64 of a-z, 0-9, _ and -',
    ],
    ['a step of an unknown type', withSteps((steps) => [...steps, { id: 'sms', type: 'sms' }]), 'steps[5].type must be one of'],
    ['a send without a template', withSteps((steps) => [{ ...steps[0], template_id: undefined }, ...steps.slice(1)]), 'steps[0].template_id is required'],
    ['a channel urm does not journey on', withSteps((steps) => [{ ...steps[0], channel: 'sms' }, ...steps.slice(1)]), 'steps[0].channel must be one of'],
    ['a wait of nothing', withSteps((steps) => [steps[0], { ...steps[1], duration: {} }, ...steps.slice(2)]), 'steps[1].duration must be at least a minute'],
    [
      'a wait of more than a year in all',
      withSteps((steps) => [steps[0], { ...steps[1], duration: { days: 365, hours: 1 } }, ...steps.slice(2)]),
      'steps[1].duration must be at most 365 days in all',
    ],
    [
      'a local time that is no time',
      withSteps((steps) => [{ id: 'later', type: 'wait_until', local_time: '24:00', next: 'welcome' }, ...steps]),
      'steps[0].local_time must be a local time, HH:MM (24 h)',
    ],
    [
      'a weekday twice',
      withSteps((steps) => [{ id: 'later', type: 'wait_until', local_time: '09:00', weekdays: ['mon', 'mon'], next: 'welcome' }, ...steps]),
      'steps[0].weekdays must not repeat an item',
    ],
    [
      'a branch condition too deep, by its path',
      withSteps((steps) => [
        steps[0],
        steps[1],
        { ...steps[2], condition: { not: { not: { not: { not: { not: { not: { lifecycle: 'ftd' } } } } } } } },
        ...steps.slice(3),
      ]),
      'steps[2].condition.not.not.not.not.not.not is nested more than 6 deep',
    ],
    [
      'a system attribute set by a journey',
      withSteps((steps) => [{ id: 'tag', type: 'set_attributes', attributes: { urm_rg_status: 'none' }, next: 'welcome' }, ...steps]),
      'steps[0].attributes.urm_rg_status is not allowed',
    ],
    ['a next naming no step', withSteps((steps) => [{ ...steps[0], next: 'wait-3d' }, ...steps.slice(1)]), 'steps[0].next: no step "wait-3d"'],
    ['a branch naming no step', withSteps((steps) => [steps[0], steps[1], { ...steps[2], else: 'sms' }, ...steps.slice(3)]), 'steps[2].else: no step "sms"'],
    ['two steps with one id', withSteps((steps) => [...steps.slice(0, 4), { ...steps[4], id: 'nudge' }]), 'steps[4].id: "nudge" is also steps[3]\'s id'],
    [
      'a step nothing leads to',
      withSteps((steps) => [...steps, { id: 'orphan', type: 'send', channel: 'email', template_id: 'x' }]),
      'steps[5]: step "orphan" cannot be reached from the first step',
    ],
    [
      'a loop that never waits',
      withSteps((steps) => [
        steps[0],
        { ...steps[1], next: 'nudge' },
        { ...steps[3], next: 'again' },
        { id: 'again', type: 'branch', condition: { lifecycle: 'ftd' }, then: 'nudge', else: 'done' },
        steps[4],
      ]),
      'steps[3].then: the loop nudge → again → nudge never waits; put a wait in it',
    ],
    [
      'an instant step that goes on to itself',
      withSteps((steps) => [{ ...steps[0], next: 'welcome' }, ...steps.slice(1)]),
      'steps[0].next: a step cannot go on to itself',
    ],
    [
      'split percentages that do not add up to 100',
      withSteps((steps) => [{ id: 'ab', type: 'split', branches: [{ percent: 50, next: 'welcome' }], holdout_percent: 40 }, ...steps]),
      "steps[0]: the branches' percent and holdout_percent add up to 90; they must add up to 100",
    ],
    [
      'a first step that exits',
      withSteps((steps) => [{ id: 'bye', type: 'exit' }, ...steps]),
      'steps[0]: the first step is where every entry starts; an exit there would do nothing',
    ],
    [
      'more steps than the bound',
      {
        entry: { api: true },
        steps: Array.from({ length: journeyLimits.steps + 1 }, (_, i) => ({
          id: `s${i}`,
          type: 'wait',
          duration: { minutes: 1 },
          ...(i < journeyLimits.steps ? { next: `s${i + 1}` } : {}),
        })),
      },
      'steps must hold at most 50 items',
    ],
    [
      'a definition larger than its item may be',
      withSteps((steps) => [{ id: 'tag', type: 'set_attributes', attributes: { note: 'x'.repeat(70_000) }, next: 'welcome' }, ...steps]),
      'journey is',
    ],
  ])('%s', (_, input, expected) => {
    const problems = problemsOf(input);

    expect(problems).toEqual(expect.arrayContaining([expect.stringContaining(expected)]));
  });

  test('every problem is listed at once, not only the first', () => {
    const input = withSteps((steps) => [{ ...steps[0], next: 'nowhere' }, { ...steps[1], duration: { minutes: 0 } }, ...steps.slice(2)]);

    expect(problemsOf(input)).toEqual(['steps[0].next: no step "nowhere"', 'steps[1].duration must be at least a minute']);
  });

  test('the refusal is a ValidationError (a 400 where it is wired)', () => {
    expect(() => checkJourney('a journey')).toThrow(ValidationError);
    expect(problemsOf(null)).toEqual(['journey must be an object']);
  });

  test('a type-checked definition still passes through the graph checks', () => {
    const unreachable: JourneyDefinition = {
      entry: { api: true },
      steps: [
        { id: 'a', type: 'exit' },
        { id: 'b', type: 'exit' },
      ],
    };

    expect(problemsOf(unreachable)).toContain('steps[0]: the first step is where every entry starts; an exit there would do nothing');
  });
});
