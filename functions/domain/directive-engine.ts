/**
 * The directive engine: how one profile record changes a profile's attributes
 * (docs/api.md, "Directives" and "Merge"). Pure: no I/O, no clock.
 *
 * Within a record: top-level attributes (set), then urm_set, urm_set_if_null,
 * urm_add, urm_append, urm_unique_append, urm_remove, urm_unset, urm_delete,
 * and last urm_merge. A record either applies whole or is rejected whole.
 */
import DecimalJs from 'decimal.js';
import type { AttributeValue, Attributes } from './attributes';
import { directives, pushTokenAttributes, requiredFields } from './attributes';

/** The fields of a record that are not attributes. */
const recordFields = new Set<string>([...requiredFields, 'urm_insert_id', 'urm_ip', ...directives]);

const pushTokens = new Set<string>(pushTokenAttributes);

/** Enough digits for the exact sum of any two doubles, so the result is rounded once, by toNumber. */
const Decimal = DecimalJs.clone({ precision: 1100 });

export interface ProfileChange {
  [field: string]: unknown;
  urm_set?: Record<string, AttributeValue>;
  urm_set_if_null?: Record<string, AttributeValue>;
  urm_add?: Record<string, number>;
  urm_append?: Record<string, AttributeValue[]>;
  urm_unique_append?: Record<string, AttributeValue[]>;
  urm_remove?: Record<string, AttributeValue[]>;
  urm_unset?: string[];
  urm_delete?: string[];
  urm_merge?: string[];
}

export type ApplyResult = { attributes: Attributes } | { rejected: string };

/** Attributes of the merge sources that exist; a missing source is absent from the map. */
export type MergeSources = ReadonlyMap<string, Attributes>;

/** Deep equality of attribute values, as a key: values are JSON scalars and arrays, so their JSON is canonical. */
export const valueKey = (value: AttributeValue | null): string => JSON.stringify(value);

function isMissingOrNull(attributes: Attributes, name: string): boolean {
  return !Object.hasOwn(attributes, name) || attributes[name] === null;
}

function typeName(value: unknown): string {
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

class Rejection extends Error {}

function topLevelAttributes(record: ProfileChange): [string, AttributeValue][] {
  return Object.entries(record).filter(([name]) => !recordFields.has(name)) as [string, AttributeValue][];
}

/** Appends `items` to `current`, keeping only values not yet present when `unique`. */
function appended(current: AttributeValue[], items: AttributeValue[], unique: boolean): AttributeValue[] {
  if (!unique) return [...current, ...items];
  const seen = new Set(current.map(valueKey));
  const result = [...current];
  for (const item of items) {
    const key = valueKey(item);
    if (!seen.has(key)) {
      seen.add(key);
      result.push(item);
    }
  }
  return result;
}

function arrayAttribute(attributes: Attributes, name: string, directive: string): AttributeValue[] | undefined {
  if (isMissingOrNull(attributes, name)) return undefined;
  const current = attributes[name];
  if (!Array.isArray(current)) {
    throw new Rejection(`${directive} needs an array, but ${name} is ${typeName(current)}`);
  }
  return current;
}

/**
 * Applies one record to a profile's attributes. Returns the new attributes
 * (the input is never changed), or why the record is rejected.
 */
export function applyProfileRecord(current: Attributes, record: ProfileChange, sources: MergeSources = new Map()): ApplyResult {
  const attributes: Attributes = { ...current };
  const set = (name: string, value: AttributeValue | null) => {
    Object.defineProperty(attributes, name, { value, enumerable: true, writable: true, configurable: true });
  };
  try {
    for (const [name, value] of topLevelAttributes(record)) set(name, value);
    for (const [name, value] of Object.entries(record.urm_set ?? {})) set(name, value);
    for (const [name, value] of Object.entries(record.urm_set_if_null ?? {})) {
      if (isMissingOrNull(attributes, name)) set(name, value);
    }
    for (const [name, amount] of Object.entries(record.urm_add ?? {})) {
      const value = isMissingOrNull(attributes, name) ? 0 : attributes[name];
      if (typeof value !== 'number') throw new Rejection(`urm_add needs a number, but ${name} is ${typeName(value)}`);
      const sum = new Decimal(value).plus(amount).toNumber();
      if (!Number.isFinite(sum)) throw new Rejection(`urm_add would take ${name} beyond the range of a number`);
      set(name, sum);
    }
    for (const [directive, unique] of [
      ['urm_append', false],
      ['urm_unique_append', true],
    ] as const) {
      for (const [name, items] of Object.entries(record[directive] ?? {})) {
        set(name, appended(arrayAttribute(attributes, name, directive) ?? [], items, unique));
      }
    }
    for (const [name, items] of Object.entries(record.urm_remove ?? {})) {
      const existing = arrayAttribute(attributes, name, 'urm_remove');
      if (existing === undefined) continue;
      const removed = new Set(items.map(valueKey));
      set(
        name,
        existing.filter((item) => !removed.has(valueKey(item))),
      );
    }
    for (const name of record.urm_unset ?? []) set(name, null);
    for (const name of record.urm_delete ?? []) delete attributes[name];
    for (const sourceId of record.urm_merge ?? []) {
      const source = sources.get(sourceId);
      if (source) mergeInto(attributes, source, set);
    }
  } catch (error) {
    if (error instanceof Rejection) return { rejected: error.message };
    throw error;
  }
  return { attributes };
}

/**
 * Copies what the target lacks; the target's own attributes (a null too) win.
 * Push tokens are the exception: unioned, so a visitor's device keeps
 * receiving after it signs in.
 */
function mergeInto(target: Attributes, source: Attributes, set: (name: string, value: AttributeValue | null) => void): void {
  for (const [name, value] of Object.entries(source)) {
    if (pushTokens.has(name) && Array.isArray(value)) {
      const mine = target[name];
      set(name, appended(Array.isArray(mine) ? mine : [], value, true));
    } else if (!Object.hasOwn(target, name)) {
      set(name, value);
    }
  }
}
