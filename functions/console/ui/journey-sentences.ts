/**
 * A journey in words, as a CRM manager reads it: "On the first deposit",
 * "Wait 2 days", "Send the email “welcome” (marketing)", "If Deposits made
 * are at least 2 → done, else → nudge". Pure: the pages draw them, the
 * tests read them.
 */
import type { Duration, Entry, Goal, JourneyDefinition, PropertyCondition, Reentry, Step, Weekday } from '../../domain/journeys/definition';
import type { Condition } from '../../domain/segments/condition';
import { conditionSentence, type Sentence } from './segment-sentences';

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

export function durationWords(duration: Duration): string {
  const parts = [
    duration.days ? plural(duration.days, 'day') : '',
    duration.hours ? plural(duration.hours, 'hour') : '',
    duration.minutes ? plural(duration.minutes, 'minute') : '',
  ].filter(Boolean);
  return parts.length === 0 ? 'no time' : parts.join(' ');
}

/** A condition on the entry event's property reads as the attribute condition it is checked as. */
export function propertyConditionWords(condition: PropertyCondition): string {
  const { property, op, value } = condition;
  return conditionSentence({ attribute: property, op, ...(value === undefined ? {} : { value }) } as Condition).text;
}

export function entryWords(entry: Entry): string {
  if ('first_deposit' in entry) return 'On the first deposit';
  if ('segment_entered' in entry) return `On entering the segment ${entry.segment_entered}`;
  if ('api' in entry) return 'When triggered through the API';
  const where = (entry.where ?? []).map(propertyConditionWords);
  return `On the event ${entry.event}${where.length > 0 ? ` where ${where.join(' and ')}` : ''}`;
}

export function reentryWords(reentry: Reentry | undefined): string {
  if (reentry === undefined || reentry === 'once') return 'Once ever';
  if (reentry === 'always') return 'Every time';
  return `Once per ${plural(reentry.every_days, 'day')}`;
}

export function goalWords(goal: Goal | undefined): string {
  const what = goal?.event ? `the event ${goal.event}` : 'a deposit';
  return `Converts on ${what}${goal?.within_days ? ` within ${plural(goal.within_days, 'day')}` : ''}`;
}

const weekdayNames: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

export const stepTypeNames: Record<Step['type'], string> = {
  wait: 'Wait',
  wait_until: 'Wait until a local time',
  wait_for_event: 'Wait for an event',
  branch: 'Branch on a condition',
  split: 'Random split',
  send: 'Send a message',
  set_attributes: 'Set attributes',
  exit: 'Exit',
};

const channelNames = { email: 'email', push: 'push', webhook: 'webhook' } as const;

/** What a step does, then where it goes: `then` lists each way on with the words that say when. */
export interface StepSentence {
  text: string;
  /** The condition of a branch, in words. */
  condition?: Sentence;
  then: { when?: string; to: string | undefined }[];
}

export function stepSentence(step: Step): StepSentence {
  switch (step.type) {
    case 'wait':
      return { text: `Wait ${durationWords(step.duration)}`, then: [{ to: step.next }] };
    case 'wait_until': {
      const days = step.weekdays && step.weekdays.length < 7 ? ` on ${step.weekdays.map((day) => weekdayNames[day]).join(', ')}` : '';
      return { text: `Wait until ${step.local_time}${days}, the player's local time`, then: [{ to: step.next }] };
    }
    case 'wait_for_event': {
      const match = step.match_entry_property ? ` with the same ${step.match_entry_property} as the entry event` : '';
      return {
        text: `Wait up to ${durationWords(step.timeout)} for the event ${step.event}${match}`,
        then: [
          { when: 'If it happens', to: step.on_event },
          { when: 'If not', to: step.on_timeout },
        ],
      };
    }
    case 'branch':
      return {
        text: 'Check the player now',
        condition: conditionSentence(step.condition),
        then: [
          { when: 'If so', to: step.then },
          { when: 'Else', to: step.else },
        ],
      };
    case 'split':
      return {
        text: `Split players at random${step.holdout_percent > 0 ? `, holding out ${step.holdout_percent}%` : ''}`,
        then: step.branches.map((branch) => ({ when: `${branch.percent}%`, to: branch.next })),
      };
    case 'send': {
      const purpose = step.purpose ?? 'marketing';
      const topic = step.topic ? `, topic ${step.topic}` : '';
      return { text: `Send the ${channelNames[step.channel]} template “${step.template_id}” (${purpose}${topic})`, then: [{ to: step.next }] };
    }
    case 'set_attributes': {
      const pairs = Object.entries(step.attributes).map(([name, value]) => `${name} = ${typeof value === 'string' ? `“${value}”` : JSON.stringify(value)}`);
      return { text: `Set ${pairs.join(', ')}`, then: [{ to: step.next }] };
    }
    case 'exit':
      return { text: 'Exit the journey', then: [] };
  }
}

/** Every line of a definition's summary: entry, audience, re-entry, goal. */
export function journeyOutline(definition: JourneyDefinition): { label: string; text: string; condition?: Sentence }[] {
  return [
    { label: 'Entry', text: entryWords(definition.entry) },
    definition.audience
      ? { label: 'Audience', text: 'Only players who match:', condition: conditionSentence(definition.audience) }
      : { label: 'Audience', text: 'Every player' },
    { label: 'Re-entry', text: reentryWords(definition.reentry) },
    { label: 'Goal', text: goalWords(definition.goal) },
  ];
}
