/**
 * The journey editor's form state and its way to and from a definition. The
 * form keeps what was typed (numbers as text, conditions as JSON text), so a
 * half-typed value is never lost; `definitionOf` makes the JSON the server
 * checks, and leaves what it cannot read to the server's messages (a number
 * that is not one is sent as typed, and `checkJourney` names its path), except
 * a condition that is not JSON, which cannot be sent at all. Pure: the editor
 * draws it, the tests read it.
 */
import type { JourneyDefinition, Step, StepType, Weekday } from '../../domain/journeys/definition';

export type EntryKind = 'event' | 'first_deposit' | 'segment_entered' | 'api';
export type ReentryKind = 'once' | 'every_days' | 'always';

export interface WhereDraft {
  property: string;
  op: string;
  /** Text: a number or true/false is sent as one; a list (for `in`) is comma-separated. */
  value: string;
}

export interface StepDraft {
  /** The card's own key: stays the same while the step's id is typed. */
  key: string;
  id: string;
  type: StepType;
  next: string;
  days: string;
  hours: string;
  minutes: string;
  localTime: string;
  weekdays: Weekday[];
  event: string;
  matchProperty: string;
  onEvent: string;
  onTimeout: string;
  condition: string;
  then: string;
  otherwise: string;
  branches: { percent: string; next: string }[];
  holdout: string;
  channel: 'email' | 'push' | 'webhook';
  templateId: string;
  purpose: 'marketing' | 'transactional';
  topic: string;
  attributes: { name: string; value: string }[];
}

export interface JourneyDraft {
  name: string;
  journeyId: string;
  entryKind: EntryKind;
  entryEvent: string;
  where: WhereDraft[];
  entrySegment: string;
  audience: string;
  reentry: ReentryKind;
  reentryDays: string;
  goalEvent: string;
  goalDays: string;
  steps: StepDraft[];
}

let keys = 0;
const newKey = () => `step-card-${++keys}`;

export function blankStep(type: StepType, id: string): StepDraft {
  return {
    key: newKey(),
    id,
    type,
    next: '',
    days: type === 'wait' || type === 'wait_for_event' ? '1' : '',
    hours: '',
    minutes: '',
    localTime: '18:00',
    weekdays: [],
    event: '',
    matchProperty: '',
    onEvent: '',
    onTimeout: '',
    condition: '',
    then: '',
    otherwise: '',
    branches: [
      { percent: '50', next: '' },
      { percent: '50', next: '' },
    ],
    holdout: '0',
    channel: 'email',
    templateId: '',
    purpose: 'marketing',
    topic: '',
    attributes: [{ name: '', value: '' }],
  };
}

export function emptyDraft(): JourneyDraft {
  return {
    name: '',
    journeyId: '',
    entryKind: 'first_deposit',
    entryEvent: '',
    where: [],
    entrySegment: '',
    audience: '',
    reentry: 'once',
    reentryDays: '30',
    goalEvent: '',
    goalDays: '',
    steps: [],
  };
}

/** A step id no step has yet: `send-email`, `send-email-2`… */
export function freshStepId(type: StepType, steps: readonly Pick<StepDraft, 'id'>[]): string {
  const base = type.replaceAll('_', '-');
  const taken = new Set(steps.map((step) => step.id));
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

/** The types whose one way on is `next` (empty: the journey ends there). */
export const linearTypes: readonly StepType[] = ['wait', 'wait_until', 'send', 'set_attributes'];

/**
 * The draft with a step of `type` added at the end. The last step, when it went nowhere, now goes on to it: steps
 * added one after another make a path without picking each `next`.
 */
export function withStep(draft: JourneyDraft, type: StepType): JourneyDraft {
  const step = blankStep(type, freshStepId(type, draft.steps));
  const steps = draft.steps.map((existing, i) =>
    i === draft.steps.length - 1 && linearTypes.includes(existing.type) && existing.next === '' ? { ...existing, next: step.id } : existing,
  );
  return { ...draft, steps: [...steps, step] };
}

export function moveStep(steps: readonly StepDraft[], index: number, by: -1 | 1): StepDraft[] {
  const to = index + by;
  if (to < 0 || to >= steps.length) return [...steps];
  const moved = [...steps];
  [moved[index], moved[to]] = [moved[to], moved[index]];
  return moved;
}

/** Without the step at `index`; the ways on that named it are cleared, for the editor to pick again. */
export function removeStep(steps: readonly StepDraft[], index: number): StepDraft[] {
  const gone = steps[index]?.id;
  const clear = (id: string) => (id === gone ? '' : id);
  return steps
    .filter((_, i) => i !== index)
    .map((step) => ({
      ...step,
      next: clear(step.next),
      onEvent: clear(step.onEvent),
      onTimeout: clear(step.onTimeout),
      then: clear(step.then),
      otherwise: clear(step.otherwise),
      branches: step.branches.map((branch) => ({ ...branch, next: clear(branch.next) })),
    }));
}

/** A step's id changed: every way on that named the old id follows it. */
export function renameStep(steps: readonly StepDraft[], index: number, id: string): StepDraft[] {
  const old = steps[index].id;
  const follow = (target: string) => (target === old && old !== '' ? id : target);
  return steps.map((step, i) => ({
    ...step,
    id: i === index ? id : step.id,
    next: follow(step.next),
    onEvent: follow(step.onEvent),
    onTimeout: follow(step.onTimeout),
    then: follow(step.then),
    otherwise: follow(step.otherwise),
    branches: step.branches.map((branch) => ({ ...branch, next: follow(branch.next) })),
  }));
}

// ---- to a definition ------------------------------------------------------

/** A typed number as a number; what is not one goes as typed, for the server to name. */
const numberOf = (text: string): number | string => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text.trim());

/** A typed value as JSON: numbers and true/false as themselves, the rest as text. */
export function scalarOf(text: string): string | number | boolean {
  const trimmed = text.trim();
  if (trimmed === 'true') return true;
  if (trimmed === 'false') return false;
  if (trimmed !== '' && Number.isFinite(Number(trimmed))) return Number(trimmed);
  return text;
}

function durationOf(step: StepDraft): Record<string, number | string> {
  const duration: Record<string, number | string> = {};
  if (step.days.trim() !== '') duration.days = numberOf(step.days);
  if (step.hours.trim() !== '') duration.hours = numberOf(step.hours);
  if (step.minutes.trim() !== '') duration.minutes = numberOf(step.minutes);
  return duration;
}

const withNext = (next: string) => (next === '' ? {} : { next });

type Parsed = { ok: true; value: unknown } | { ok: false; problem: string };

function parseCondition(text: string, path: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, problem: `${path} is not valid JSON: ${(error as Error).message}` };
  }
}

/** The step as the server reads it; `problems` holds a branch condition that is not JSON. */
function stepOf(step: StepDraft, path: string, problems: string[]): Record<string, unknown> {
  const base = { id: step.id, type: step.type };
  switch (step.type) {
    case 'wait':
      return { ...base, duration: durationOf(step), ...withNext(step.next) };
    case 'wait_until':
      return { ...base, local_time: step.localTime, ...(step.weekdays.length > 0 ? { weekdays: step.weekdays } : {}), ...withNext(step.next) };
    case 'wait_for_event':
      return {
        ...base,
        event: step.event.trim(),
        ...(step.matchProperty.trim() ? { match_entry_property: step.matchProperty.trim() } : {}),
        timeout: durationOf(step),
        on_event: step.onEvent,
        on_timeout: step.onTimeout,
      };
    case 'branch': {
      const parsed =
        step.condition.trim() === ''
          ? ({ ok: false, problem: `${path}.condition is required` } as Parsed)
          : parseCondition(step.condition, `${path}.condition`);
      if (!parsed.ok) problems.push(parsed.problem);
      return { ...base, condition: parsed.ok ? parsed.value : {}, then: step.then, else: step.otherwise };
    }
    case 'split':
      return {
        ...base,
        branches: step.branches.map((branch) => ({ percent: numberOf(branch.percent), next: branch.next })),
        holdout_percent: numberOf(step.holdout === '' ? '0' : step.holdout),
      };
    case 'send':
      return {
        ...base,
        channel: step.channel,
        template_id: step.templateId.trim(),
        purpose: step.purpose,
        ...(step.topic.trim() ? { topic: step.topic.trim() } : {}),
        ...withNext(step.next),
      };
    case 'set_attributes':
      return {
        ...base,
        attributes: Object.fromEntries(step.attributes.filter((pair) => pair.name.trim() !== '').map((pair) => [pair.name.trim(), scalarOf(pair.value)])),
        ...withNext(step.next),
      };
    case 'exit':
      return base;
  }
}

function entryOf(draft: JourneyDraft): Record<string, unknown> {
  switch (draft.entryKind) {
    case 'first_deposit':
      return { first_deposit: true };
    case 'api':
      return { api: true };
    case 'segment_entered':
      return { segment_entered: draft.entrySegment.trim() };
    case 'event': {
      const where = draft.where
        .filter((row) => row.property.trim() !== '')
        .map((row) => {
          const value = row.op === 'exists' ? undefined : row.op === 'in' ? row.value.split(',').map((item) => scalarOf(item.trim())) : scalarOf(row.value);
          return { property: row.property.trim(), op: row.op, ...(value === undefined ? {} : { value }) };
        });
      return { event: draft.entryEvent.trim(), ...(where.length > 0 ? { where } : {}) };
    }
  }
}

/**
 * The definition to send, or the problems that keep it from being sent (a condition that is not JSON). The problems
 * name paths as the server's do, so the form shows both the same way.
 */
export function definitionOf(draft: JourneyDraft): { definition: JourneyDefinition } | { problems: string[] } {
  const problems: string[] = [];
  const definition: Record<string, unknown> = { entry: entryOf(draft) };
  if (draft.audience.trim() !== '') {
    const parsed = parseCondition(draft.audience, 'audience');
    if (parsed.ok) definition.audience = parsed.value;
    else problems.push(parsed.problem);
  }
  if (draft.reentry === 'always') definition.reentry = 'always';
  else if (draft.reentry === 'every_days') definition.reentry = { every_days: numberOf(draft.reentryDays) };
  const goal: Record<string, unknown> = {};
  if (draft.goalEvent.trim() !== '') goal.event = draft.goalEvent.trim();
  if (draft.goalDays.trim() !== '') goal.within_days = numberOf(draft.goalDays);
  if (Object.keys(goal).length > 0) definition.goal = goal;
  definition.steps = draft.steps.map((step, i) => stepOf(step, `steps[${i}]`, problems));
  if (problems.length > 0) return { problems };
  // The server checks it whole (checkJourney); this is only its shape.
  return { definition: definition as unknown as JourneyDefinition };
}

// ---- from a definition ----------------------------------------------------

const text = (value: number | undefined) => (value === undefined ? '' : String(value));
const valueText = (value: unknown) => (Array.isArray(value) ? value.map(String).join(', ') : value === undefined ? '' : String(value));

function stepDraftOf(step: Step): StepDraft {
  const draft = blankStep(step.type, step.id);
  switch (step.type) {
    case 'wait':
      return { ...draft, days: text(step.duration.days), hours: text(step.duration.hours), minutes: text(step.duration.minutes), next: step.next ?? '' };
    case 'wait_until':
      return { ...draft, localTime: step.local_time, weekdays: [...(step.weekdays ?? [])], next: step.next ?? '' };
    case 'wait_for_event':
      return {
        ...draft,
        event: step.event,
        matchProperty: step.match_entry_property ?? '',
        days: text(step.timeout.days),
        hours: text(step.timeout.hours),
        minutes: text(step.timeout.minutes),
        onEvent: step.on_event,
        onTimeout: step.on_timeout,
      };
    case 'branch':
      return { ...draft, condition: JSON.stringify(step.condition, null, 2), then: step.then, otherwise: step.else };
    case 'split':
      return {
        ...draft,
        branches: step.branches.map((branch) => ({ percent: String(branch.percent), next: branch.next })),
        holdout: String(step.holdout_percent),
      };
    case 'send':
      return {
        ...draft,
        channel: step.channel,
        templateId: step.template_id,
        purpose: step.purpose ?? 'marketing',
        topic: step.topic ?? '',
        next: step.next ?? '',
      };
    case 'set_attributes':
      return {
        ...draft,
        attributes: Object.entries(step.attributes).map(([name, value]) => ({ name, value: typeof value === 'string' ? value : JSON.stringify(value) })),
        next: step.next ?? '',
      };
    case 'exit':
      return draft;
  }
}

export function draftOf(name: string, definition: JourneyDefinition): JourneyDraft {
  const draft = emptyDraft();
  const entry = definition.entry;
  const reentry = definition.reentry;
  return {
    ...draft,
    name,
    entryKind: 'first_deposit' in entry ? 'first_deposit' : 'api' in entry ? 'api' : 'segment_entered' in entry ? 'segment_entered' : 'event',
    entryEvent: 'event' in entry ? entry.event : '',
    where: 'event' in entry ? (entry.where ?? []).map((row) => ({ property: row.property, op: row.op, value: valueText(row.value) })) : [],
    entrySegment: 'segment_entered' in entry ? entry.segment_entered : '',
    audience: definition.audience ? JSON.stringify(definition.audience, null, 2) : '',
    reentry: reentry === undefined || reentry === 'once' ? 'once' : reentry === 'always' ? 'always' : 'every_days',
    reentryDays: typeof reentry === 'object' ? String(reentry.every_days) : draft.reentryDays,
    goalEvent: definition.goal?.event ?? '',
    goalDays: text(definition.goal?.within_days),
    steps: definition.steps.map(stepDraftOf),
  };
}
