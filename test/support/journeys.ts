/** Builders for the journey engine's unit tests: a player's facts, events, and the acceptance journey. */
import type { Attributes } from '../../functions/domain/attributes';
import type { JourneyDefinition } from '../../functions/domain/journeys/definition';
import type { JourneyEvent, JourneyFacts, JourneyVersion } from '../../functions/domain/journeys/engine';
import type { MessagingSettings } from '../../functions/domain/send-gate';
import { needKey } from '../../functions/domain/segments/needs';
import type { Aggregate } from '../../functions/domain/segments/state';

export const money = { currency: 'EUR', money_events: { Deposit: 'deposit', Bet: 'bet' } } as const satisfies JourneyFacts['money'];

/** What the engine reads of a player at `now`: attributes, and the lifetime deposit count the branch reads. */
export function playerFacts(
  now: string,
  options: { attributes?: Attributes; deposits?: number; messaging?: MessagingSettings; members?: string[] } = {},
): JourneyFacts {
  const aggregates: Record<string, Aggregate> = {};
  if (options.deposits !== undefined) {
    aggregates[needKey('count', { money: 'deposit' })] = { since: '2026-01-01T00:00:00.000Z', from: {}, complete: true, total: String(options.deposits) };
  }
  return {
    attributes: options.attributes ?? {},
    aggregates,
    member: (id) => (options.members ?? []).includes(id),
    now: new Date(now),
    messaging: options.messaging,
    money: { currency: money.currency, money_events: { ...money.money_events } },
  };
}

let sequence = 0;
/** An event as the runtime hands it to the engine; each gets its own insert id unless given one. */
export function journeyEvent(name: string, at: string, properties: Record<string, unknown> = {}, extra: Partial<JourneyEvent> = {}): JourneyEvent {
  sequence++;
  return { name, insertId: `ins-${sequence}`, at, properties, ...extra };
}

/** The acceptance journey: first deposit → welcome email now → wait 2 days → if no second deposit, push. */
export function welcomeJourney(goal?: JourneyDefinition['goal']): JourneyDefinition {
  return {
    entry: { first_deposit: true },
    ...(goal === undefined ? {} : { goal }),
    steps: [
      { id: 'welcome', type: 'send', channel: 'email', template_id: 'welcome', next: 'wait-2d' },
      { id: 'wait-2d', type: 'wait', duration: { days: 2 }, next: 'second-deposit' },
      {
        id: 'second-deposit',
        type: 'branch',
        condition: { lifecycle: 'deposit_count', op: 'gte', value: 2 },
        then: 'done',
        else: 'nudge',
      },
      { id: 'nudge', type: 'send', channel: 'push', template_id: 'come-back' },
      { id: 'done', type: 'exit' },
    ],
  };
}

export const version = (definition: JourneyDefinition, journeyId = 'welcome', v = 1): JourneyVersion => ({ journeyId, version: v, definition });
