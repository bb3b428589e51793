/**
 * The segment engine's store (functions/domain/segments/keeper.ts,
 * SegmentStateStore) in memory, over a MemorySegmentStore's definitions and
 * members: versioned state writes, the transaction's member items and size
 * shards, the due index, backfill progress. It records each call and the
 * write units it would cost, and lets a test crash a step.
 */
import type { MemberChange } from '../../functions/domain/segments/engine';
import type { SegmentStateStore } from '../../functions/domain/segments/keeper';
import type { Condition } from '../../functions/domain/segments/condition';
import type { SegmentDefinition } from '../../functions/domain/segments/model';
import { backfillStartsAt, dueOf, type PlayerState } from '../../functions/domain/segments/state';
import type { MemorySegmentStore } from './segments';

const clone = <T>(value: T): T => structuredClone(value);
/** DynamoDB bills a write by 1 KB (a transaction's items twice). */
const writeUnits = (item: unknown, transactional = false) => Math.max(1, Math.ceil(Buffer.byteLength(JSON.stringify(item)) / 1024)) * (transactional ? 2 : 1);

export class MemorySegmentStateStore implements SegmentStateStore {
  readonly items = new Map<string, PlayerState>();
  readonly sizes = new Map<string, number>();
  readonly calls: { op: keyof SegmentStateStore; units: number }[] = [];
  /** Runs before a write or an outbox clear is applied: a test's way to crash there. */
  beforeWrite: (op: 'write' | 'clearOutbox') => void = () => {};

  constructor(readonly segments: MemorySegmentStore) {}

  state(appId: string, profileId: string): PlayerState | undefined {
    return clone(this.items.get(`p#${appId}#${profileId}`));
  }

  size(appId: string, segmentId: string): number {
    return this.sizes.get(`${appId}#${segmentId}`) ?? 0;
  }

  writesMade(): number {
    return this.calls.filter((call) => call.op === 'write' || call.op === 'clearOutbox' || call.op === 'saveBackfill').length;
  }

  async states(pks: string[]): Promise<Map<string, PlayerState>> {
    this.calls.push({ op: 'states', units: 0 });
    return new Map(pks.flatMap((pk) => (this.items.has(pk) ? [[pk, clone(this.items.get(pk)!)] as const] : [])));
  }

  async write(state: PlayerState, expectedVersion: number, members: MemberChange[]): Promise<boolean> {
    this.beforeWrite('write');
    const pk = `p#${state.app_id}#${state.profile_id}`;
    this.calls.push({ op: 'write', units: writeUnits(state, members.length > 0) + members.length * 4 });
    if ((this.items.get(pk)?.version ?? 0) !== expectedVersion) return false;
    this.items.set(pk, clone(state));
    for (const change of members) {
      if (change.member) this.segments.addMember(state.app_id, change.segment_id, { profile_id: state.profile_id, entered_at: change.at });
      else this.segments.memberships.get(`${state.app_id}#${change.segment_id}`)?.delete(state.profile_id);
      const key = `${state.app_id}#${change.segment_id}`;
      this.sizes.set(key, (this.sizes.get(key) ?? 0) + (change.member ? 1 : -1));
    }
    return true;
  }

  async clearOutbox(state: PlayerState): Promise<boolean> {
    this.beforeWrite('clearOutbox');
    const pk = `p#${state.app_id}#${state.profile_id}`;
    this.calls.push({ op: 'clearOutbox', units: 1 });
    const current = this.items.get(pk);
    if (current?.version !== state.version) return false;
    this.items.set(pk, { ...current, outbox: [], version: current.version + 1 });
    return true;
  }

  async due(part: number, until: string, limit: number, start?: Record<string, string>): Promise<{ pks: string[]; next?: Record<string, string> }> {
    this.calls.push({ op: 'due', units: 0 });
    const due = [...this.items.entries()]
      .map(([pk, state]) => ({ pk, due: dueOf(state) }))
      .filter(({ due }) => due !== undefined && due.due_part === `due#${part}` && due.due_at <= until)
      .sort((a, b) => (a.due!.due_at + a.pk < b.due!.due_at + b.pk ? -1 : 1))
      .filter(({ pk, due }) => start === undefined || due!.due_at + pk > start.due_at + start.pk);
    const page = due.slice(0, limit);
    const last = page.at(-1);
    return { pks: page.map(({ pk }) => pk), ...(due.length > limit && last ? { next: { pk: last.pk, due_at: last.due!.due_at } } : {}) };
  }

  async backfillsDue(until: string, limit: number): Promise<{ app_id: string; segment_id: string }[]> {
    this.calls.push({ op: 'backfillsDue', units: 0 });
    return [...this.segments.definitions.values()]
      .filter((definition) => definition.status === 'backfilling' && backfillStartsAt(definition) <= until)
      .slice(0, limit)
      .map(({ app_id, segment_id }) => ({ app_id, segment_id }));
  }

  async saveBackfill(definition: SegmentDefinition): Promise<boolean> {
    this.calls.push({ op: 'saveBackfill', units: 1 });
    const key = `${definition.app_id}#${definition.segment_id}`;
    const current = this.segments.definitions.get(key);
    if (current?.version !== definition.version || current.status !== 'backfilling') return false;
    this.segments.definitions.set(key, { ...current, status: definition.status, ...(definition.backfill ? { backfill: clone(definition.backfill) } : {}) });
    return true;
  }
}

/**
 * A `ready` definition whose condition came into being `sinceMs` ago (a day by default): its figures count every
 * event received since, and no backfill is waited for. `extra` overrides (a backfilling one, another version).
 */
export function readyDefinition(
  appId: string,
  segmentId: string,
  condition: Condition,
  extra: Partial<SegmentDefinition> & { sinceMs?: number } = {},
): SegmentDefinition {
  const { sinceMs = 86_400_000, ...rest } = extra;
  const since = new Date(Date.now() - sinceMs).toISOString();
  return {
    app_id: appId,
    segment_id: segmentId,
    name: segmentId,
    condition,
    version: 1,
    status: 'ready',
    created_at: since,
    updated_at: since,
    updated_by: 'admin-cli',
    backfill: { started_at: since, done: 0, finished_at: since },
    ...rest,
  };
}
