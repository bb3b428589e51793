/** An in-memory SegmentStore for unit tests: definitions, members and sizes as the DynamoDB store keeps them. */
import type { SegmentDefinition, SegmentMember, SegmentStore } from '../../functions/domain/segments/model';

export class MemorySegmentStore implements SegmentStore {
  readonly definitions = new Map<string, SegmentDefinition>();
  /** `app#segment` → profile id → member. */
  readonly memberships = new Map<string, Map<string, SegmentMember>>();

  async list(appId: string, options: { archived?: boolean } = {}): Promise<SegmentDefinition[]> {
    return [...this.definitions.values()]
      .filter((segment) => segment.app_id === appId && (options.archived || segment.status !== 'archived'))
      .sort((a, b) => a.created_at.localeCompare(b.created_at))
      .map((segment) => structuredClone(segment));
  }

  async get(appId: string, segmentId: string): Promise<SegmentDefinition | undefined> {
    const found = this.definitions.get(`${appId}#${segmentId}`);
    return found && structuredClone(found);
  }

  async create(definition: SegmentDefinition): Promise<boolean> {
    const key = `${definition.app_id}#${definition.segment_id}`;
    if (this.definitions.has(key)) return false;
    this.definitions.set(key, structuredClone(definition));
    return true;
  }

  async put(definition: SegmentDefinition, expectedVersion: number): Promise<boolean> {
    const key = `${definition.app_id}#${definition.segment_id}`;
    if (this.definitions.get(key)?.version !== expectedVersion) return false;
    this.definitions.set(key, structuredClone(definition));
    return true;
  }

  /** Test arrangement: makes a player a member, as the segment consumer would. */
  addMember(appId: string, segmentId: string, member: SegmentMember): void {
    const key = `${appId}#${segmentId}`;
    const members = this.memberships.get(key) ?? new Map<string, SegmentMember>();
    members.set(member.profile_id, member);
    this.memberships.set(key, members);
  }

  async members(appId: string, segmentId: string, limit: number, cursor?: string): Promise<{ members: SegmentMember[]; next?: string }> {
    const all = [...(this.memberships.get(`${appId}#${segmentId}`)?.values() ?? [])].sort((a, b) => (a.profile_id < b.profile_id ? -1 : 1));
    const after = cursor === undefined ? all : all.filter((member) => member.profile_id > Buffer.from(cursor, 'base64url').toString('utf8'));
    const page = after.slice(0, limit);
    const more = after.length > limit;
    return { members: page, ...(more ? { next: Buffer.from(page[page.length - 1].profile_id, 'utf8').toString('base64url') } : {}) };
  }

  async size(appId: string, segmentId: string): Promise<number> {
    return this.memberships.get(`${appId}#${segmentId}`)?.size ?? 0;
  }
}
