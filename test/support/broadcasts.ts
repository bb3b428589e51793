/** An in-memory BroadcastStore for unit tests: the same conditions as the DynamoDB store, and a count of its calls. */
import type { Broadcast, BroadcastStatus, BroadcastStore, DueRecipient, RecipientOutcome, Settled, SnapshotPage } from '../../functions/domain/broadcasts';

export interface MemoryRecipient {
  profileId: string;
  status: 'pending' | 'held_out' | RecipientOutcome['status'];
  dueAt?: string;
  lease?: string;
  attempts: number;
}

export class MemoryBroadcastStore implements BroadcastStore {
  readonly broadcasts = new Map<string, Broadcast>();
  /** `app#broadcast` → profile id → recipient. */
  readonly recipients = new Map<string, Map<string, MemoryRecipient>>();
  readonly calls: Record<string, number> = {};

  private count(name: string) {
    this.calls[name] = (this.calls[name] ?? 0) + 1;
  }

  private recipientsOf(appId: string, broadcastId: string) {
    const key = `${appId}#${broadcastId}`;
    const found = this.recipients.get(key) ?? new Map<string, MemoryRecipient>();
    this.recipients.set(key, found);
    return found;
  }

  async create(broadcast: Broadcast): Promise<boolean> {
    this.count('create');
    const key = `${broadcast.app_id}#${broadcast.broadcast_id}`;
    if (this.broadcasts.has(key)) return false;
    this.broadcasts.set(key, structuredClone(broadcast));
    return true;
  }

  async get(appId: string, broadcastId: string): Promise<Broadcast | undefined> {
    this.count('get');
    const found = this.broadcasts.get(`${appId}#${broadcastId}`);
    return found && structuredClone(found);
  }

  async list(appId: string, limit: number): Promise<Broadcast[]> {
    this.count('list');
    return [...this.broadcasts.values()]
      .filter((broadcast) => broadcast.app_id === appId)
      .sort((a, b) => b.created_at.localeCompare(a.created_at))
      .slice(0, limit)
      .map((broadcast) => structuredClone(broadcast));
  }

  async transition(broadcast: Broadcast, expected: BroadcastStatus): Promise<boolean> {
    this.count('transition');
    const key = `${broadcast.app_id}#${broadcast.broadcast_id}`;
    const stored = this.broadcasts.get(key);
    if (stored?.status !== expected) return false;
    const { counts, snapshot } = stored;
    this.broadcasts.set(key, { ...structuredClone(broadcast), counts, snapshot });
    return true;
  }

  async active(by: Date, limit: number): Promise<{ appId: string; broadcastId: string }[]> {
    this.count('active');
    return [...this.broadcasts.values()]
      .filter((b) => (b.status === 'scheduled' || b.status === 'running') && b.start_at !== undefined && b.start_at <= by.toISOString())
      .slice(0, limit)
      .map((b) => ({ appId: b.app_id, broadcastId: b.broadcast_id }));
  }

  async putRecipients(appId: string, broadcastId: string, page: SnapshotPage): Promise<void> {
    this.count('putRecipients');
    const all = this.recipientsOf(appId, broadcastId);
    for (const { profileId, dueAt } of page.recipients) all.set(profileId, { profileId, status: 'pending', dueAt, attempts: 0 });
    for (const profileId of page.heldOut) all.set(profileId, { profileId, status: 'held_out', attempts: 0 });
  }

  async advanceSnapshot(
    appId: string,
    broadcastId: string,
    from: string | undefined,
    to: { cursor?: string; done: boolean },
    page: SnapshotPage,
    at: Date,
  ): Promise<boolean> {
    this.count('advanceSnapshot');
    const stored = this.broadcasts.get(`${appId}#${broadcastId}`);
    if (!stored || stored.snapshot.done || stored.snapshot.cursor !== from) return false;
    stored.snapshot = { done: to.done, ...(to.cursor !== undefined ? { cursor: to.cursor } : {}), ...(to.done ? { done_at: at.toISOString() } : {}) };
    stored.counts.entered += page.recipients.length + page.heldOut.length;
    stored.counts.held_out += page.heldOut.length;
    return true;
  }

  async due(appId: string, broadcastId: string, by: Date, limit: number): Promise<DueRecipient[]> {
    this.count('due');
    return [...this.recipientsOf(appId, broadcastId).values()]
      .filter((r) => r.dueAt !== undefined && r.dueAt <= by.toISOString())
      .sort((a, b) => (a.dueAt as string).localeCompare(b.dueAt as string))
      .slice(0, limit)
      .map((r) => ({ appId, broadcastId, profileId: r.profileId, dueAt: r.dueAt as string, attempts: r.attempts }));
  }

  async take(recipient: DueRecipient, lease: string, leaseUntil: Date): Promise<boolean> {
    this.count('take');
    const stored = this.recipientsOf(recipient.appId, recipient.broadcastId).get(recipient.profileId);
    if (stored?.dueAt !== recipient.dueAt) return false;
    stored.dueAt = leaseUntil.toISOString();
    stored.lease = lease;
    stored.attempts++;
    return true;
  }

  async settle(settled: Settled[]): Promise<number> {
    this.count('settle');
    let done = 0;
    for (const { recipient, lease, outcome } of settled) {
      const stored = this.recipientsOf(recipient.appId, recipient.broadcastId).get(recipient.profileId);
      if (stored?.lease !== lease || stored.dueAt === undefined) continue;
      stored.status = outcome.status;
      stored.dueAt = undefined;
      stored.lease = undefined;
      done++;
      const counts = this.broadcasts.get(`${recipient.appId}#${recipient.broadcastId}`)?.counts;
      if (!counts) continue;
      if (outcome.status === 'sent') counts.sent++;
      if (outcome.status === 'deferred') counts.deferred++;
      if (outcome.status === 'failed') counts.failed++;
      if (outcome.status === 'suppressed') counts.suppressed[outcome.reason] = (counts.suppressed[outcome.reason] ?? 0) + 1;
    }
    return done;
  }

  async pending(appId: string, broadcastId: string): Promise<boolean> {
    this.count('pending');
    return [...this.recipientsOf(appId, broadcastId).values()].some((r) => r.dueAt !== undefined);
  }
}
