/**
 * A journey version's definition: one JSON Schema (`journeySchema`, what the
 * OpenAPI reference shows), checked by `checkJourney` with messages that name
 * the path (`steps[2].next: no step "push"`), then what a schema cannot say of
 * a graph: every `next` names a step, every step is reachable from the first,
 * no loop runs without a wait, a split's percentages sum to 100.
 *
 * json-schema-to-ts cannot derive the recursive condition type, so the
 * journey's type is spelled over the derived parts, as condition.ts does.
 */
import { ValidationError } from '../errors';
import { conditionSchema, validCondition, type Condition } from '../segments/condition';
import { nameSchema, topicSchema, valueSchema } from '../attributes';
import { limits } from '../limits';
import { identifierText } from '../text';
import { compileValidator, type FromRequestSchema, type RequestSchema } from '../validation';

export const journeyLimits = {
  steps: 50,
  idLength: 64,
  whereConditions: 10,
  splitBranches: 10,
  attributesPerStep: 20,
  /** The longest wait, timeout or goal window. */
  maxDays: 365,
  /** The whole definition as JSON: it is stored in one item beside the journey. */
  definitionBytes: 64 * 1024,
} as const;

export const stepTypes = ['wait', 'wait_until', 'wait_for_event', 'branch', 'split', 'send', 'set_attributes', 'exit'] as const;
export type StepType = (typeof stepTypes)[number];
/** The steps that stop a run until a timer or an event: a loop must pass one of these. */
export const waitingStepTypes: readonly StepType[] = ['wait', 'wait_until', 'wait_for_event'];
export const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof weekdays)[number];
export const sendChannels = ['email', 'push', 'webhook'] as const;
/** Comparisons of an entry event's property: the attribute ops a property reads naturally. */
export const propertyOps = ['equals', 'not_equals', 'lt', 'lte', 'gt', 'gte', 'in', 'exists'] as const;

const stepId = { type: 'string', pattern: `^[a-z0-9_-]{1,${journeyLimits.idLength}}$`, description: 'a step id: 1 to 64 of a-z, 0-9, _ and -' } as const;
const eventName = { type: 'string', minLength: 1, maxLength: limits.eventNameLength, ...identifierText } as const;
const propertyName = { type: 'string', minLength: 1, maxLength: limits.attributeNameLength, ...identifierText } as const;
const scalar = { anyOf: [{ type: 'string', maxLength: 1000 }, { type: 'number' }, { type: 'boolean' }] } as const;
const days = { type: 'integer', minimum: 1, maximum: journeyLimits.maxDays } as const;

/** `{"days": 2}`, `{"hours": 1, "minutes": 30}`: at least a minute, at most a year in all (checkJourney adds them up). */
export const durationSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    days: { type: 'integer', minimum: 0, maximum: journeyLimits.maxDays },
    hours: { type: 'integer', minimum: 0, maximum: journeyLimits.maxDays * 24 },
    minutes: { type: 'integer', minimum: 0, maximum: journeyLimits.maxDays * 24 * 60 },
  },
} as const;

/** `{"property": "amount", "op": "gte", "value": 100}` on the entry event's properties. */
export const propertyConditionSchema = {
  type: 'object',
  required: ['property', 'op'],
  additionalProperties: false,
  properties: {
    property: propertyName,
    op: { enum: propertyOps },
    value: { anyOf: [scalar, { type: 'array', minItems: 1, maxItems: 100, items: scalar }] },
  },
} as const;

// ---- entry --------------------------------------------------------------

const eventEntrySchema = {
  type: 'object',
  required: ['event'],
  additionalProperties: false,
  properties: { event: eventName, where: { type: 'array', maxItems: journeyLimits.whereConditions, items: propertyConditionSchema } },
} as const;
const firstDepositEntrySchema = {
  type: 'object',
  required: ['first_deposit'],
  additionalProperties: false,
  properties: { first_deposit: { const: true } },
} as const;
const segmentEntrySchema = {
  type: 'object',
  required: ['segment_entered'],
  additionalProperties: false,
  properties: { segment_entered: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$', description: 'a segment id' } },
} as const;
const apiEntrySchema = { type: 'object', required: ['api'], additionalProperties: false, properties: { api: { const: true } } } as const;

/** Each kind of entry by the key that names it. */
const entryKinds = [
  ['event', eventEntrySchema],
  ['first_deposit', firstDepositEntrySchema],
  ['segment_entered', segmentEntrySchema],
  ['api', apiEntrySchema],
] as const;
export const entrySchema = { type: 'object', oneOf: [eventEntrySchema, firstDepositEntrySchema, segmentEntrySchema, apiEntrySchema] } as const;

export const reentrySchema = {
  anyOf: [{ enum: ['once', 'always'] }, { type: 'object', required: ['every_days'], additionalProperties: false, properties: { every_days: days } }],
} as const;

/** A goal event ends the journey as a conversion; without `event`, any event the application maps to a deposit. */
export const goalSchema = { type: 'object', additionalProperties: false, properties: { event: eventName, within_days: days } } as const;

// ---- steps --------------------------------------------------------------

const stepBase = { id: stepId } as const;

const waitStepSchema = {
  type: 'object',
  required: ['id', 'type', 'duration'],
  additionalProperties: false,
  properties: { ...stepBase, type: { const: 'wait' }, duration: durationSchema, next: stepId },
} as const;
const waitUntilStepSchema = {
  type: 'object',
  required: ['id', 'type', 'local_time'],
  additionalProperties: false,
  properties: {
    ...stepBase,
    type: { const: 'wait_until' },
    local_time: { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'a local time, HH:MM (24 h)' },
    weekdays: { type: 'array', minItems: 1, maxItems: 7, uniqueItems: true, items: { enum: weekdays } },
    next: stepId,
  },
} as const;
const waitForEventStepSchema = {
  type: 'object',
  required: ['id', 'type', 'event', 'timeout', 'on_event', 'on_timeout'],
  additionalProperties: false,
  properties: {
    ...stepBase,
    type: { const: 'wait_for_event' },
    event: eventName,
    match_entry_property: propertyName,
    timeout: durationSchema,
    on_event: stepId,
    on_timeout: stepId,
  },
} as const;
// The condition is checked by validCondition (its own messages, depth and size); the full schema refers to conditionSchema.
const branchStepSchema = {
  type: 'object',
  required: ['id', 'type', 'condition', 'then', 'else'],
  additionalProperties: false,
  properties: { ...stepBase, type: { const: 'branch' }, condition: { type: 'object' }, then: stepId, else: stepId },
} as const;
const splitStepSchema = {
  type: 'object',
  required: ['id', 'type', 'branches', 'holdout_percent'],
  additionalProperties: false,
  properties: {
    ...stepBase,
    type: { const: 'split' },
    branches: {
      type: 'array',
      minItems: 1,
      maxItems: journeyLimits.splitBranches,
      items: {
        type: 'object',
        required: ['percent', 'next'],
        additionalProperties: false,
        properties: { percent: { type: 'integer', minimum: 1, maximum: 100 }, next: stepId },
      },
    },
    holdout_percent: { type: 'integer', minimum: 0, maximum: 99 },
  },
} as const;
const sendStepSchema = {
  type: 'object',
  required: ['id', 'type', 'channel', 'template_id'],
  additionalProperties: false,
  properties: {
    ...stepBase,
    type: { const: 'send' },
    channel: { enum: sendChannels },
    template_id: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$', description: 'a template id' },
    purpose: { enum: ['marketing', 'transactional'] },
    topic: topicSchema,
    next: stepId,
  },
} as const;
const setAttributesStepSchema = {
  type: 'object',
  required: ['id', 'type', 'attributes'],
  additionalProperties: false,
  properties: {
    ...stepBase,
    type: { const: 'set_attributes' },
    attributes: {
      type: 'object',
      minProperties: 1,
      maxProperties: journeyLimits.attributesPerStep,
      propertyNames: nameSchema(),
      additionalProperties: valueSchema,
    },
    next: stepId,
  },
} as const;
const exitStepSchema = { type: 'object', required: ['id', 'type'], additionalProperties: false, properties: { ...stepBase, type: { const: 'exit' } } } as const;

const stepKinds = {
  wait: waitStepSchema,
  wait_until: waitUntilStepSchema,
  wait_for_event: waitForEventStepSchema,
  branch: branchStepSchema,
  split: splitStepSchema,
  send: sendStepSchema,
  set_attributes: setAttributesStepSchema,
  exit: exitStepSchema,
} as const;

const topLevel = {
  entry: entrySchema,
  reentry: reentrySchema,
  goal: goalSchema,
} as const;

/**
 * The one schema of a journey version, whole: the OpenAPI reference's. `audience` and a branch's `condition` are
 * segment conditions (functions/domain/segments/condition.ts).
 */
export const journeySchema = {
  $defs: conditionSchema.$defs,
  type: 'object',
  required: ['entry', 'steps'],
  additionalProperties: false,
  properties: {
    ...topLevel,
    audience: { $ref: '#/$defs/condition' },
    steps: {
      type: 'array',
      minItems: 1,
      maxItems: journeyLimits.steps,
      items: {
        type: 'object',
        oneOf: stepTypes.map((type) =>
          type === 'branch'
            ? { ...branchStepSchema, properties: { ...branchStepSchema.properties, condition: { $ref: '#/$defs/condition' } } }
            : stepKinds[type],
        ),
      },
    },
  },
} as const;

// ---- types --------------------------------------------------------------

export type Duration = FromRequestSchema<typeof durationSchema>;
export type PropertyCondition = FromRequestSchema<typeof propertyConditionSchema>;
export type Entry = FromRequestSchema<typeof entrySchema>;
export type Reentry = FromRequestSchema<typeof reentrySchema>;
export type Goal = FromRequestSchema<typeof goalSchema>;
export type WaitStep = FromRequestSchema<typeof waitStepSchema>;
export type WaitUntilStep = FromRequestSchema<typeof waitUntilStepSchema>;
export type WaitForEventStep = FromRequestSchema<typeof waitForEventStepSchema>;
export type BranchStep = Omit<FromRequestSchema<typeof branchStepSchema>, 'condition'> & { condition: Condition };
export type SplitStep = FromRequestSchema<typeof splitStepSchema>;
export type SendStep = FromRequestSchema<typeof sendStepSchema>;
export type SetAttributesStep = FromRequestSchema<typeof setAttributesStepSchema>;
export type ExitStep = FromRequestSchema<typeof exitStepSchema>;
export type Step = WaitStep | WaitUntilStep | WaitForEventStep | BranchStep | SplitStep | SendStep | SetAttributesStep | ExitStep;

export interface JourneyDefinition {
  entry: Entry;
  /** Who may enter: a segment condition on the player when the entry event arrives. */
  audience?: Condition;
  /** Absent: once. */
  reentry?: Reentry;
  /** Absent: a deposit (any event the application maps to the money kind deposit), with no window. */
  goal?: Goal;
  /** The first is where every entry starts. */
  steps: Step[];
}

// ---- the check ----------------------------------------------------------

// Typed by hand above: json-schema-to-ts would recurse without end on the condition's $ref.
const validWhole = compileValidator(journeySchema as RequestSchema, 'journey');
const validOutline = compileValidator(
  {
    type: 'object',
    required: ['entry', 'steps'],
    additionalProperties: false,
    properties: {
      entry: { type: 'object' },
      audience: {},
      reentry: reentrySchema,
      goal: goalSchema,
      steps: {
        type: 'array',
        minItems: 1,
        maxItems: journeyLimits.steps,
        items: { type: 'object', required: ['id', 'type'], properties: { id: stepId, type: { enum: stepTypes } } },
      },
    },
  } as RequestSchema,
  'journey',
);
const entryValidators = entryKinds.map(([key, schema]) => [key, compileValidator(schema as RequestSchema, 'entry')] as const);
// S given, not inferred: inferring it from the kinds' union is deeper than the checker goes.
const stepValidators = new Map<StepType, (input: unknown) => void>(
  stepTypes.map((type) => [type, compileValidator<RequestSchema>(stepKinds[type] as RequestSchema, 'step')]),
);

/**
 * The journey, checked: its size, the schema in one pass, then what a schema cannot say (the graph, the sums, the
 * conditions' depth). A refused journey's messages name the path (`steps[1].duration.days must be <= 365`). Throws
 * ValidationError.
 */
export function checkJourney(input: unknown): JourneyDefinition {
  const size = Buffer.byteLength(JSON.stringify(input) ?? '', 'utf8');
  if (size > journeyLimits.definitionBytes)
    throw new ValidationError([`journey is ${size} bytes as JSON; at most ${journeyLimits.definitionBytes}`], 'journey is invalid');
  let problems: string[];
  try {
    validWhole(input);
    problems = [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    problems = describeShape(input);
  }
  if (problems.length === 0) problems = meaningProblems(input as JourneyDefinition);
  if (problems.length > 0) throw new ValidationError(problems, 'journey is invalid');
  return input as JourneyDefinition;
}

/** A validator's messages under `path`: `duration.days must be …` → `steps[1].duration.days must be …`. */
function under(path: string, root: string, validate: (input: unknown) => unknown, input: unknown): string[] {
  try {
    validate(input);
    return [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.errors.map((message) => (message.startsWith(root) ? message.replace(root, path) : `${path}.${message}`));
  }
}

/** Why a journey the whole schema refused is wrong: the outline, then each part by the kind its key names. */
function describeShape(input: unknown): string[] {
  const outline = under('journey', 'journey', validOutline, input);
  if (outline.length > 0 || input === null || typeof input !== 'object') return outline.length > 0 ? outline : ['journey must be an object'];
  const journey = input as { entry: Record<string, unknown>; steps: { type: StepType }[]; audience?: unknown };
  const problems: string[] = [];
  const kind = entryValidators.find(([key]) => key in journey.entry);
  if (kind === undefined) problems.push(`entry must have one of ${entryKinds.map(([key]) => key).join(', ')}`);
  else problems.push(...under('entry', 'entry', kind[1], journey.entry));
  journey.steps.forEach((step, i) => {
    problems.push(...under(`steps[${i}]`, 'step', stepValidators.get(step.type)!, step));
  });
  problems.push(...conditionProblems(journey as JourneyDefinition));
  return problems.length > 0 ? problems : ['journey is invalid'];
}

function conditionProblems(journey: JourneyDefinition): string[] {
  const problems: string[] = [];
  const check = (condition: unknown, path: string) => {
    try {
      validCondition(condition);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      problems.push(...error.errors.map((message) => message.replace(/^condition/, path)));
    }
  };
  // A property condition reads as an attribute condition: the same rules of which ops need a value, and a list.
  if ('event' in journey.entry) {
    for (const [i, { property, op, value }] of (journey.entry.where ?? []).entries()) {
      check({ attribute: property, op, ...(value === undefined ? {} : { value }) }, `entry.where[${i}]`);
    }
  }
  if (journey.audience !== undefined) check(journey.audience, 'audience');
  journey.steps.forEach((step, i) => {
    if (step.type === 'branch') check(step.condition, `steps[${i}].condition`);
  });
  return problems;
}

export const durationMs = (duration: Duration): number => ((duration.days ?? 0) * 1440 + (duration.hours ?? 0) * 60 + (duration.minutes ?? 0)) * 60_000;

/** The ids a step goes on to, each with the field that names it. */
export function successors(step: Step): { field: string; id: string }[] {
  switch (step.type) {
    case 'wait_for_event':
      return [
        { field: 'on_event', id: step.on_event },
        { field: 'on_timeout', id: step.on_timeout },
      ];
    case 'branch':
      return [
        { field: 'then', id: step.then },
        { field: 'else', id: step.else },
      ];
    case 'split':
      return step.branches.map((branch, i) => ({ field: `branches[${i}].next`, id: branch.next }));
    case 'exit':
      return [];
    default:
      return step.next === undefined ? [] : [{ field: 'next', id: step.next }];
  }
}

/** What the schema cannot say: ids, the graph, the sums, the durations, the conditions' depth and size. */
function meaningProblems(journey: JourneyDefinition): string[] {
  const problems: string[] = [];
  const { steps } = journey;
  const index = new Map<string, number>();
  steps.forEach((step, i) => {
    if (index.has(step.id)) problems.push(`steps[${i}].id: "${step.id}" is also steps[${index.get(step.id)}]'s id`);
    else index.set(step.id, i);
  });
  if (steps[0].type === 'exit') problems.push('steps[0]: the first step is where every entry starts; an exit there would do nothing');

  const minute = 60_000;
  const year = journeyLimits.maxDays * 1440 * minute;
  const checkDuration = (duration: Duration, path: string) => {
    const ms = durationMs(duration);
    if (ms < minute) problems.push(`${path} must be at least a minute`);
    else if (ms > year) problems.push(`${path} must be at most ${journeyLimits.maxDays} days in all`);
  };
  steps.forEach((step, i) => {
    for (const { field, id } of successors(step)) {
      if (!index.has(id)) problems.push(`steps[${i}].${field}: no step "${id}"`);
      else if (id === step.id && !waitingStepTypes.includes(step.type)) problems.push(`steps[${i}].${field}: a step cannot go on to itself`);
    }
    if (step.type === 'wait') checkDuration(step.duration, `steps[${i}].duration`);
    if (step.type === 'wait_for_event') checkDuration(step.timeout, `steps[${i}].timeout`);
    if (step.type === 'split') {
      const sum = step.branches.reduce((total, branch) => total + branch.percent, 0) + step.holdout_percent;
      if (sum !== 100) problems.push(`steps[${i}]: the branches' percent and holdout_percent add up to ${sum}; they must add up to 100`);
    }
  });
  problems.push(...conditionProblems(journey));
  if (problems.length > 0) return problems;

  // Reachable from the first step.
  const reached = new Set<string>([steps[0].id]);
  const queue = [steps[0]];
  while (queue.length > 0) {
    for (const { id } of successors(queue.shift()!)) {
      if (!reached.has(id)) {
        reached.add(id);
        queue.push(steps[index.get(id)!]);
      }
    }
  }
  steps.forEach((step, i) => {
    if (!reached.has(step.id)) problems.push(`steps[${i}]: step "${step.id}" cannot be reached from the first step`);
  });

  // A loop through instant steps only would run without end: find one among the steps that do not wait.
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (i: number): boolean => {
    const step = steps[i];
    state.set(step.id, 'open');
    trail.push(step.id);
    for (const { field, id } of successors(step)) {
      const j = index.get(id)!;
      if (waitingStepTypes.includes(steps[j].type)) continue;
      if (state.get(id) === 'open') {
        const loop = [...trail.slice(trail.indexOf(id)), id].join(' → ');
        problems.push(`steps[${i}].${field}: the loop ${loop} never waits; put a wait in it`);
        return true;
      }
      if (state.get(id) === undefined && visit(j)) return true;
    }
    trail.pop();
    state.set(step.id, 'done');
    return false;
  };
  for (const [i, step] of steps.entries()) {
    if (waitingStepTypes.includes(step.type) || state.get(step.id) !== undefined) continue;
    trail.length = 0;
    // One loop is enough to say: the others usually share its steps.
    if (visit(i)) break;
  }
  return problems;
}

/** The step of an id (checkJourney made every `next` name one). */
export function stepById(journey: JourneyDefinition, id: string): Step {
  const step = journey.steps.find((candidate) => candidate.id === id);
  if (step === undefined) throw new Error(`journey has no step ${id}`);
  return step;
}
