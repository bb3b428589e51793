/**
 * What the active segments of an application need kept per player: counts,
 * sums and last times of events, each under a stable key, and the moment it
 * became needed (`since`).
 *
 * `since` is derived, not registered: the earliest moment the current version
 * of an active definition needing it came into being (its backfill's
 * `started_at`, else its `updated_at`, plus DEFINITION_WRITE_MARGIN_MS). A rename keeps the backfill, so it
 * moves nothing; a changed condition starts a new backfill, and a need only
 * it has gets a later `since`. A player's kept figure carries the `since` it
 * was counted under; when they differ, it is counted again from the timeline
 * (state.ts), so a need that stopped being needed and came
 * back is never read stale. Nobody writing a definition has to call the engine.
 */
import type { Condition, EventSelector, LeafCondition } from './condition';
import type { SegmentDefinition } from './model';

export type NeedKind = 'count' | 'sum' | 'last';

export interface Need {
  /** Stable across definitions: the same figure for every segment that reads it. */
  key: string;
  kind: NeedKind;
  selector: EventSelector;
  /** A sum of events by name: the number property summed. */
  property?: string;
  /** Longest window any segment reads it over, in days; 0: only the total ever (or the last time). */
  windowDays: number;
  /** Events received from this moment on are counted by the consumer; those before, from the timeline. */
  since: string;
}

export function needKey(kind: NeedKind, selector: EventSelector, property?: string): string {
  const by = 'name' in selector ? ['name', selector.name] : ['money', selector.money];
  return JSON.stringify([kind, ...by, ...(property === undefined ? [] : [property])]);
}

/** The needs one leaf reads, with the window it reads them over. */
export function leafNeeds(leaf: LeafCondition): Omit<Need, 'since'>[] {
  const need = (kind: NeedKind, selector: EventSelector, windowDays = 0, property?: string) => ({
    key: needKey(kind, selector, property),
    kind,
    selector,
    windowDays,
    ...(property === undefined ? {} : { property }),
  });
  if ('events' in leaf) {
    const property = leaf.measure === 'sum' && 'name' in leaf.events ? leaf.property : undefined;
    return [need(leaf.measure, leaf.events, leaf.within_days ?? 0, property)];
  }
  if ('last' in leaf) return [need('last', leaf.last)];
  if ('lifecycle' in leaf) return lifecycleNeeds(leaf.lifecycle).map(([kind, money]) => need(kind, { money }));
  return [];
}

type MoneyFigure = ['count' | 'sum', 'deposit' | 'withdrawal' | 'bet' | 'win' | 'bonus'];
export function lifecycleNeeds(figure: string): MoneyFigure[] {
  switch (figure) {
    case 'ftd':
    case 'deposit_count':
      return [['count', 'deposit']];
    case 'lifetime_deposits':
      return [['sum', 'deposit']];
    case 'lifetime_withdrawals':
      return [['sum', 'withdrawal']];
    default:
      return [
        ['sum', 'bet'],
        ['sum', 'win'],
        ['sum', 'bonus'],
      ];
  }
}

export function leavesOf(condition: Condition): LeafCondition[] {
  if ('all' in condition) return condition.all.flatMap(leavesOf);
  if ('any' in condition) return condition.any.flatMap(leavesOf);
  if ('not' in condition) return leavesOf(condition.not);
  return [condition];
}

/**
 * A definition's use case stamps `started_at` and then writes it: the write lands within this, so an event received
 * from `started_at` plus this on is applied by a consumer that reads the definition (it reads definitions after records).
 */
export const DEFINITION_WRITE_MARGIN_MS = 5_000;

/** When the definition's current condition came into being (ISO), plus the write's margin: its needs' `since`. */
export const versionSince = (definition: Pick<SegmentDefinition, 'backfill' | 'updated_at'>) =>
  new Date(Date.parse(definition.backfill?.started_at ?? definition.updated_at) + DEFINITION_WRITE_MARGIN_MS).toISOString();

/** The needs of the application's active definitions (archived ones need nothing), by key. */
export function needsOf(definitions: SegmentDefinition[]): Map<string, Need> {
  const needs = new Map<string, Need>();
  for (const definition of definitions) {
    if (definition.status === 'archived') continue;
    const since = versionSince(definition);
    for (const leaf of leavesOf(definition.condition)) {
      for (const need of leafNeeds(leaf)) {
        const known = needs.get(need.key);
        if (!known) needs.set(need.key, { ...need, since });
        else {
          known.windowDays = Math.max(known.windowDays, need.windowDays);
          if (since < known.since) known.since = since;
        }
      }
    }
  }
  return needs;
}

/** The needs one definition reads (a subset of `needsOf`'s keys). */
export function needKeysOf(definition: SegmentDefinition): string[] {
  return [...new Set(leavesOf(definition.condition).flatMap((leaf) => leafNeeds(leaf).map((need) => need.key)))];
}
