/**
 * A segment's condition: one JSON Schema (ajv validates it; the leaves' types
 * are derived from it with json-schema-to-ts), written by an operator in the
 * console, the admin command line or the API. docs/api.md, "Segments", lists
 * every kind with examples.
 *
 * json-schema-to-ts cannot derive a recursive type, so the combinators'
 * type (`Condition`) is spelled over the derived leaves; the schema itself
 * recurses through `$defs`, and `conditionShapeProblems` bounds depth and size,
 * which a schema cannot say of a tree.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { ValidationError } from '../errors';
import { compileValidator, type RequestSchema } from '../validation';

/** Comparisons of an attribute with a value. */
export const attributeOps = ['equals', 'not_equals', 'lt', 'lte', 'gt', 'gte', 'in', 'not_in', 'exists', 'not_exists', 'contains', 'starts_with'] as const;
/** Comparisons of a figure (a count, a sum, a lifetime amount) with a number. */
export const figureOps = ['equals', 'not_equals', 'lt', 'lte', 'gt', 'gte'] as const;
/** The money kinds of the application's `money_events` mapping. */
export const conditionMoneyKinds = ['deposit', 'withdrawal', 'bet', 'win', 'bonus'] as const;
/** Lifetime figures of the player's money (the funnel's ledger, in the main currency). */
export const lifecycleFigures = ['lifetime_deposits', 'lifetime_withdrawals', 'ngr', 'deposit_count'] as const;
export const reachableChannels = ['email', 'sms', 'push'] as const;

/** Longest window in days: a year of daily counts per kept figure. */
export const MAX_WINDOW_DAYS = 365;
/** A condition's tree: at most this deep and this many nodes. */
export const MAX_CONDITION_DEPTH = 6;
export const MAX_CONDITION_NODES = 50;

const name = { type: 'string', minLength: 1, maxLength: 100 } as const;
/** A decimal amount as text, like the money on records: exact, never a float. */
const decimal = { type: 'string', pattern: '^-?\\d{1,15}(\\.\\d{1,6})?$' } as const;
const scalar = { anyOf: [{ type: 'string', maxLength: 1000 }, { type: 'number' }, { type: 'boolean' }] } as const;
const days = { type: 'integer', minimum: 1, maximum: MAX_WINDOW_DAYS } as const;

/** Which events a figure or recency counts: by name, or every event the application maps to a money kind. */
export const eventSelectorSchema = {
  type: 'object',
  oneOf: [
    { type: 'object', required: ['name'], properties: { name }, additionalProperties: false },
    { type: 'object', required: ['money'], properties: { money: { enum: conditionMoneyKinds } }, additionalProperties: false },
  ],
} as const;

/** `{"attribute": "country", "op": "in", "value": ["MT", "IE"]}` */
export const attributeConditionSchema = {
  type: 'object',
  required: ['attribute', 'op'],
  properties: {
    attribute: name,
    op: { enum: attributeOps },
    value: { anyOf: [scalar, { type: 'array', maxItems: 100, items: scalar }] },
  },
  additionalProperties: false,
} as const;

/**
 * `{"events": {"name": "Deposit"}, "measure": "count", "op": "gte", "value": 2, "within_days": 30}`;
 * a sum: `"measure": "sum"` with `"property"` (a number property) for events by name, or the amount in the main
 * currency for a money kind (`"value"` then a decimal string). No `within_days`: ever.
 */
export const eventConditionSchema = {
  type: 'object',
  required: ['events', 'measure', 'op', 'value'],
  properties: {
    events: eventSelectorSchema,
    measure: { enum: ['count', 'sum'] },
    property: name,
    op: { enum: figureOps },
    value: { anyOf: [{ type: 'number' }, decimal] },
    within_days: days,
  },
  additionalProperties: false,
} as const;

/** `{"last": {"name": "Login"}, "not_within_days": 7}`: never counts as not within. */
export const recencyConditionSchema = {
  type: 'object',
  oneOf: [
    { type: 'object', required: ['last', 'within_days'], properties: { last: eventSelectorSchema, within_days: days }, additionalProperties: false },
    { type: 'object', required: ['last', 'not_within_days'], properties: { last: eventSelectorSchema, not_within_days: days }, additionalProperties: false },
  ],
} as const;

/** `{"lifecycle": "ftd"}` (has made a first deposit), or a lifetime figure: `{"lifecycle": "ngr", "op": "gte", "value": "500"}`. */
export const lifecycleConditionSchema = {
  type: 'object',
  required: ['lifecycle'],
  properties: {
    lifecycle: { enum: ['ftd', ...lifecycleFigures] },
    op: { enum: figureOps },
    value: { anyOf: [{ type: 'number' }, decimal] },
  },
  additionalProperties: false,
} as const;

/** `{"reachable": "email"}`: the send gate's static checks for the channel (consent, RG status, an address, not suppressed). */
export const reachableConditionSchema = {
  type: 'object',
  required: ['reachable'],
  properties: { reachable: { enum: reachableChannels } },
  additionalProperties: false,
} as const;

/** `{"segment": "vip"}`: a member of another segment of the application. */
export const membershipConditionSchema = {
  type: 'object',
  required: ['segment'],
  properties: { segment: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' } },
  additionalProperties: false,
} as const;

export const conditionSchema = {
  $defs: {
    condition: {
      anyOf: [
        attributeConditionSchema,
        eventConditionSchema,
        recencyConditionSchema,
        lifecycleConditionSchema,
        reachableConditionSchema,
        membershipConditionSchema,
        {
          type: 'object',
          required: ['all'],
          properties: { all: { type: 'array', minItems: 1, maxItems: 20, items: { $ref: '#/$defs/condition' } } },
          additionalProperties: false,
        },
        {
          type: 'object',
          required: ['any'],
          properties: { any: { type: 'array', minItems: 1, maxItems: 20, items: { $ref: '#/$defs/condition' } } },
          additionalProperties: false,
        },
        { type: 'object', required: ['not'], properties: { not: { $ref: '#/$defs/condition' } }, additionalProperties: false },
      ],
    },
  },
  $ref: '#/$defs/condition',
} as const;

export type AttributeCondition = FromSchema<typeof attributeConditionSchema>;
export type EventCondition = FromSchema<typeof eventConditionSchema>;
export type RecencyCondition = FromSchema<typeof recencyConditionSchema>;
export type LifecycleCondition = FromSchema<typeof lifecycleConditionSchema>;
export type ReachableCondition = FromSchema<typeof reachableConditionSchema>;
export type MembershipCondition = FromSchema<typeof membershipConditionSchema>;
export type EventSelector = FromSchema<typeof eventSelectorSchema>;
export type LeafCondition = AttributeCondition | EventCondition | RecencyCondition | LifecycleCondition | ReachableCondition | MembershipCondition;
export type Condition = LeafCondition | { all: Condition[] } | { any: Condition[] } | { not: Condition };

// Typed by hand above: json-schema-to-ts would recurse without end on the schema's $ref.
const validShape = compileValidator(conditionSchema as RequestSchema, 'condition');

/** Each kind of node by the key that names it: a refused node is described by its own kind's schema, not by all of them. */
const kinds = [
  ['attribute', attributeConditionSchema],
  ['events', eventConditionSchema],
  ['last', recencyConditionSchema],
  ['lifecycle', lifecycleConditionSchema],
  ['reachable', reachableConditionSchema],
  ['segment', membershipConditionSchema],
] as const;
const leafValidators = kinds.map(([key, schema]) => [key, compileValidator(schema as RequestSchema, 'condition')] as const);
// A recency node is described by the branch its window key picks: the other branch's refusals would only confuse.
const [recencyWithin, recencyNotWithin] = recencyConditionSchema.oneOf.map((branch) => compileValidator(branch as RequestSchema, 'condition'));
const combinators = ['all', 'any', 'not'] as const;

/**
 * The condition, checked: the schema in one pass, then what a schema cannot say (depth, size, the fields each kind
 * needs together). A refused condition's messages name the node's path (`condition.all[1].within_days must be <= 365`).
 * Throws ValidationError.
 */
export function validCondition(input: unknown): Condition {
  let problems: string[];
  try {
    validShape(input);
    problems = conditionShapeProblems(input as Condition);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    problems = describeNode(input, 'condition', 1);
  }
  if (problems.length > 0) throw new ValidationError(problems, 'condition is invalid');
  return input as Condition;
}

/** Why a node the schema refused is wrong, by the kind its key names. */
function describeNode(node: unknown, path: string, depth: number): string[] {
  if (depth > MAX_CONDITION_DEPTH) return [`${path} is nested more than ${MAX_CONDITION_DEPTH} deep`];
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return [`${path} must be an object`];
  const keys = Object.keys(node);
  const combinator = combinators.find((key) => key in node);
  if (combinator !== undefined) {
    const extra = keys.filter((key) => key !== combinator);
    if (extra.length > 0) return [`${path}.${extra[0]} is not allowed beside ${combinator}`];
    const value = (node as Record<string, unknown>)[combinator];
    if (combinator === 'not') return describeNode(value, `${path}.not`, depth + 1);
    if (!Array.isArray(value) || value.length === 0 || value.length > 20) return [`${path}.${combinator} must be a list of 1 to 20 conditions`];
    return value.flatMap((child, i) => describeNode(child, `${path}.${combinator}[${i}]`, depth + 1));
  }
  const kind = leafValidators.find(([key]) => key in node);
  if (kind === undefined) return [`${path} must have one of ${[...kinds.map(([key]) => key), ...combinators].join(', ')}`];
  if (kind[0] === 'last' && 'within_days' in node === 'not_within_days' in node) return [`${path} needs one of within_days and not_within_days`];
  const validate = kind[0] === 'last' ? ('within_days' in node ? recencyWithin! : recencyNotWithin!) : kind[1];
  try {
    validate(node);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.errors
      .filter((message) => !message.endsWith('must match exactly one schema in oneOf'))
      .map((message) => (message.startsWith('condition') ? message.replace(/^condition/, path) : `${path}.${message}`));
  }
  return leafProblems(node as LeafCondition, path);
}

/** What the schema cannot check: depth, node count, and each leaf's fields that go together. */
export function conditionShapeProblems(condition: Condition): string[] {
  const problems: string[] = [];
  let nodes = 0;
  const walk = (node: Condition, path: string, depth: number): void => {
    nodes++;
    if (depth > MAX_CONDITION_DEPTH) {
      problems.push(`${path} is nested more than ${MAX_CONDITION_DEPTH} deep`);
      return;
    }
    if ('all' in node) {
      for (const [i, child] of node.all.entries()) walk(child, `${path}.all[${i}]`, depth + 1);
    } else if ('any' in node) {
      for (const [i, child] of node.any.entries()) walk(child, `${path}.any[${i}]`, depth + 1);
    } else if ('not' in node) walk(node.not, `${path}.not`, depth + 1);
    else problems.push(...leafProblems(node, path));
  };
  walk(condition, 'condition', 1);
  if (nodes > MAX_CONDITION_NODES) problems.push(`condition has ${nodes} parts; at most ${MAX_CONDITION_NODES}`);
  return problems;
}

function leafProblems(leaf: LeafCondition, path: string): string[] {
  if ('attribute' in leaf) {
    const needsNone = leaf.op === 'exists' || leaf.op === 'not_exists';
    const needsList = leaf.op === 'in' || leaf.op === 'not_in';
    if (needsNone && leaf.value !== undefined) return [`${path}.value must be absent for ${leaf.op}`];
    if (!needsNone && leaf.value === undefined) return [`${path}.value is required for ${leaf.op}`];
    if (needsList && !Array.isArray(leaf.value)) return [`${path}.value must be a list for ${leaf.op}`];
    if (!needsList && !needsNone && Array.isArray(leaf.value) && leaf.op !== 'contains') return [`${path}.value must be one value for ${leaf.op}`];
    return [];
  }
  if ('events' in leaf) {
    const byName = 'name' in leaf.events;
    if (leaf.measure === 'sum' && byName && leaf.property === undefined) return [`${path}.property is required to sum events by name`];
    if (leaf.property !== undefined && (leaf.measure !== 'sum' || !byName)) return [`${path}.property applies only to a sum of events by name`];
    return [];
  }
  if ('lifecycle' in leaf) {
    const figure = leaf.lifecycle !== 'ftd';
    if (figure && (leaf.op === undefined || leaf.value === undefined)) return [`${path} needs op and value for ${leaf.lifecycle}`];
    if (!figure && (leaf.op !== undefined || leaf.value !== undefined)) return [`${path}: ftd takes no op or value (use {"not": …} for players without one)`];
  }
  return [];
}

/** The segments a condition names (membership), for the reference and cycle checks. */
export function referencedSegments(condition: Condition): string[] {
  if ('all' in condition) return condition.all.flatMap(referencedSegments);
  if ('any' in condition) return condition.any.flatMap(referencedSegments);
  if ('not' in condition) return referencedSegments(condition.not);
  return 'segment' in condition ? [condition.segment] : [];
}
