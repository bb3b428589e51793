/** JourneyStore in memory, with the adapter's rules: unique ids, conditional writes on revisions, occupancy moved with the instance. */
import {
  INSTANCES_LISTED,
  JOURNEYS_PER_APP,
  timerShardOf,
  VERSIONS_LISTED,
  type EntryRecord,
  type InstanceKey,
  type JourneyHead,
  type JourneyStore,
  type StepOccupancy,
  type StoredInstance,
  type StoredJourneyVersion,
} from '../../functions/domain/journeys/store';

const clone = <T>(value: T): T => structuredClone(value);
const instanceKey = (key: InstanceKey) => `${key.app_id}/${key.profile_id}/${key.journey_id}/${key.entry_id}`;
const storedKey = (stored: StoredInstance) =>
  instanceKey({ app_id: stored.app_id, profile_id: stored.instance.profileId, journey_id: stored.instance.journeyId, entry_id: stored.instance.entryId });

export class MemoryJourneyStore implements JourneyStore {
  readonly heads = new Map<string, JourneyHead>();
  readonly storedVersions = new Map<string, StoredJourneyVersion>();
  readonly stored = new Map<string, StoredInstance>();
  readonly records = new Map<string, EntryRecord>();
  readonly counters = new Map<string, StepOccupancy & { app_id: string; journey_id: string }>();
  /** Calls by method, as the adapter would make DynamoDB calls: tests assert what a run costs. */
  readonly calls: Record<string, number> = {};
  /** Set to make the next `move` (or `enter`) lose its race, as another runner would. */
  conflictNext = false;

  private count_(name: string) {
    this.calls[name] = (this.calls[name] ?? 0) + 1;
  }

  async list(appId: string, options: { archived?: boolean } = {}): Promise<JourneyHead[]> {
    this.count_('list');
    return [...this.heads.values()]
      .filter((head) => head.app_id === appId && (options.archived || head.status !== 'archived'))
      .sort((a, b) => b.updated_at.localeCompare(a.updated_at))
      .slice(0, JOURNEYS_PER_APP)
      .map(clone);
  }

  async get(appId: string, journeyId: string): Promise<JourneyHead | undefined> {
    this.count_('get');
    const head = this.heads.get(`${appId}/${journeyId}`);
    return head && clone(head);
  }

  async count(appId: string): Promise<number> {
    return [...this.heads.values()].filter((head) => head.app_id === appId).length;
  }

  async create(head: JourneyHead, version: StoredJourneyVersion): Promise<boolean> {
    const key = `${head.app_id}/${head.journey_id}`;
    if (this.heads.has(key)) return false;
    this.heads.set(key, clone(head));
    this.storedVersions.set(`${key}/${version.version}`, clone(version));
    return true;
  }

  async update(head: JourneyHead, expectedRevision: number, version?: StoredJourneyVersion): Promise<boolean> {
    const key = `${head.app_id}/${head.journey_id}`;
    if (this.heads.get(key)?.revision !== expectedRevision) return false;
    if (version && this.storedVersions.has(`${key}/${version.version}`)) return false;
    this.heads.set(key, clone(head));
    if (version) this.storedVersions.set(`${key}/${version.version}`, clone(version));
    return true;
  }

  async version(appId: string, journeyId: string, version: number): Promise<StoredJourneyVersion | undefined> {
    this.count_('version');
    const found = this.storedVersions.get(`${appId}/${journeyId}/${version}`);
    return found && clone(found);
  }

  async versions(appId: string, journeyId: string, limit = VERSIONS_LISTED): Promise<StoredJourneyVersion[]> {
    return [...this.storedVersions.values()]
      .filter((v) => v.app_id === appId && v.journey_id === journeyId)
      .sort((a, b) => b.version - a.version)
      .slice(0, Math.min(limit, VERSIONS_LISTED))
      .map(clone);
  }

  async occupancy(appId: string, journeyId: string): Promise<StepOccupancy[]> {
    return [...this.counters.values()]
      .filter((row) => row.app_id === appId && row.journey_id === journeyId && row.players > 0)
      .map(({ version, step_id, players }) => ({ version, step_id, players }));
  }

  async history(appId: string, profileId: string): Promise<EntryRecord[]> {
    this.count_('history');
    return [...this.records.entries()].filter(([key]) => key.startsWith(`${appId}/${profileId}/`)).map(([, record]) => clone(record));
  }

  async instances(keys: InstanceKey[]): Promise<StoredInstance[]> {
    if (keys.length > 0) this.count_('instances');
    return keys.flatMap((key) => {
      const found = this.stored.get(instanceKey(key));
      return found ? [clone(found)] : [];
    });
  }

  async playerInstances(appId: string, profileId: string, limit = INSTANCES_LISTED): Promise<StoredInstance[]> {
    return [...this.stored.values()]
      .filter((stored) => stored.app_id === appId && stored.instance.profileId === profileId)
      .slice(0, Math.min(limit, INSTANCES_LISTED))
      .map(clone);
  }

  private bump(stored: StoredInstance, stepId: string, by: number) {
    const { instance } = stored;
    const key = `${stored.app_id}/${instance.journeyId}/${instance.version}/${stepId}`;
    const row = this.counters.get(key) ?? { app_id: stored.app_id, journey_id: instance.journeyId, version: instance.version, step_id: stepId, players: 0 };
    row.players += by;
    this.counters.set(key, row);
  }

  private lost(): boolean {
    if (!this.conflictNext) return false;
    this.conflictNext = false;
    return true;
  }

  async enter(stored: StoredInstance, seenEntries: number): Promise<boolean> {
    this.count_('enter');
    const { instance } = stored;
    const recordKey = `${stored.app_id}/${instance.profileId}/${instance.journeyId}`;
    const record = this.records.get(recordKey);
    if (this.lost() || this.stored.has(storedKey(stored))) return false;
    if (record ? record.entries !== seenEntries || record.active_entry !== undefined : seenEntries !== 0) return false;
    this.stored.set(storedKey(stored), clone(stored));
    this.records.set(recordKey, {
      journey_id: instance.journeyId,
      entries: seenEntries + 1,
      last_entered_at: instance.enteredAt,
      active_entry: instance.entryId,
    });
    this.bump(stored, instance.stepId, 1);
    return true;
  }

  async move(next: StoredInstance, fromStep: string): Promise<boolean> {
    this.count_('move');
    const current = this.stored.get(storedKey(next));
    if (this.lost() || current?.revision !== next.revision - 1) return false;
    const { instance } = next;
    const stored = clone(next);
    if (instance.done) delete stored.due_at;
    this.stored.set(storedKey(next), stored);
    if (instance.done) {
      this.bump(next, fromStep, -1);
      const record = this.records.get(`${next.app_id}/${instance.profileId}/${instance.journeyId}`);
      if (record?.active_entry === instance.entryId) delete record.active_entry;
    } else if (instance.stepId !== fromStep) {
      this.bump(next, fromStep, -1);
      this.bump(next, instance.stepId, 1);
    }
    return true;
  }

  readonly firstDeposits = new Map<string, string>();

  async claimFirstDeposit(appId: string, profileId: string, insertId: string): Promise<boolean> {
    this.count_('claimFirstDeposit');
    const key = `${appId}/${profileId}`;
    const claimed = this.firstDeposits.get(key);
    if (claimed !== undefined) return claimed === insertId;
    this.firstDeposits.set(key, insertId);
    return true;
  }

  async due(shard: number, until: string, limit: number): Promise<{ instances: StoredInstance[]; next?: Record<string, string> }> {
    this.count_('due');
    const due = [...this.stored.values()]
      .filter(
        (stored) =>
          !stored.instance.done &&
          stored.due_at !== undefined &&
          stored.due_at <= until &&
          timerShardOf(stored.instance.profileId, stored.instance.journeyId) === shard,
      )
      .sort((a, b) => (a.due_at ?? '').localeCompare(b.due_at ?? ''));
    return { instances: due.slice(0, limit).map(clone) };
  }

  async lease(stored: StoredInstance, leaseUntil: string): Promise<boolean> {
    this.count_('lease');
    const current = this.stored.get(storedKey(stored));
    if (current?.revision !== stored.revision || current.due_at !== stored.due_at) return false;
    current.due_at = leaseUntil;
    return true;
  }

  /** Players at each step now, as `version/step → count` (steps with nobody left out). */
  async occupancyOf(appId: string, journeyId: string): Promise<Record<string, number>> {
    return Object.fromEntries((await this.occupancy(appId, journeyId)).map((row) => [`${row.version}/${row.step_id}`, row.players]));
  }
}
