/** The send gate's ports in memory: caps counts, the deferred outbox (with the sender's view of it), and a way to move an app's clock on the local stack. */
import type { DueMessage, DueQueue, DeferredOutbox, GatedRequest } from '../../functions/messaging/gated';
import type { ChannelCaps, GateChannel, LocalMoment, SentCounts } from '../../functions/domain/send-gate';
import type { Channel } from '../../functions/domain/channels';
import type { TestStack } from './local-stack';

/** app_1's channel `ch_news`, whose sender news@example.com the application holds (assignment('app_1', 'news@example.com')). */
export const newsChannel: Channel = {
  app_id: 'app_1',
  channel_id: 'ch_news',
  name: 'News',
  from_email: 'news@example.com',
  from_name: 'Casino News',
  enabled: true,
  created_at: '2026-11-01T00:00:00.000Z',
};

/** Counts per player and channel, with the adapter's contract: a claim counts only under the caps, atomically. */
export class MemorySentCounts implements SentCounts {
  readonly items = new Map<string, { day: string; dayCount: number; week: string; weekCount: number }>();
  /** When set, every read fails with it. */
  failRead: Error | undefined;
  reads = 0;

  private key = (appId: string, profileId: string, channel: GateChannel) => `${appId}#${profileId}#${channel}`;

  /** Arranges what was sent in the moment's day and week. */
  set(appId: string, profileId: string, channel: GateChannel, moment: Pick<LocalMoment, 'day' | 'week'>, sent: { day: number; week: number }): void {
    this.items.set(this.key(appId, profileId, channel), { day: moment.day, dayCount: sent.day, week: moment.week, weekCount: sent.week });
  }

  async read(appId: string, profileId: string, channel: GateChannel, moment: LocalMoment) {
    this.reads++;
    if (this.failRead) throw this.failRead;
    const item = this.items.get(this.key(appId, profileId, channel));
    return { day: item?.day === moment.day ? item.dayCount : 0, week: item?.week === moment.week ? item.weekCount : 0 };
  }

  async claim(appId: string, profileId: string, channel: GateChannel, moment: LocalMoment, caps: ChannelCaps | undefined) {
    const sent = await this.read(appId, profileId, channel, moment);
    if (caps?.daily !== undefined && sent.day >= caps.daily) return false;
    if (caps?.weekly !== undefined && sent.week >= caps.weekly) return false;
    this.items.set(this.key(appId, profileId, channel), { day: moment.day, dayCount: sent.day + 1, week: moment.week, weekCount: sent.week + 1 });
    return true;
  }

  async release(appId: string, profileId: string, channel: GateChannel, moment: LocalMoment) {
    const item = this.items.get(this.key(appId, profileId, channel));
    if (item?.day === moment.day && item.week === moment.week && item.dayCount > 0) {
      item.dayCount--;
      item.weekCount--;
    }
  }
}

/** The deferred outbox and its due index in memory, with the adapter's conditions (put once, take by due time, done by lease). */
export class MemoryDeferredOutbox implements DeferredOutbox, DueQueue {
  readonly partitions = ['due#0'];
  readonly items = new Map<string, { request: GatedRequest; dueAt: string; lease?: string }>();
  /** When set, runs inside the next take, before its condition is checked: another run getting there first. */
  beforeNextTake: (() => void) | undefined;

  private key = (appId: string, messageId: string) => `${appId}#${messageId}`;

  async defer(request: GatedRequest, until: Date, lease?: string) {
    const key = this.key(request.appId, request.messageId);
    const current = this.items.get(key);
    if (lease !== undefined) {
      if (current?.lease === lease) this.items.set(key, { request: current.request, dueAt: until.toISOString() });
      return;
    }
    if (!current) this.items.set(key, { request: structuredClone(request), dueAt: until.toISOString() });
  }

  async due(_partition: string, by: Date, limit: number): Promise<DueMessage[]> {
    return [...this.items.values()]
      .filter((item) => item.dueAt <= by.toISOString())
      .sort((a, b) => a.dueAt.localeCompare(b.dueAt))
      .slice(0, limit)
      .map((item) => ({ appId: item.request.appId, messageId: item.request.messageId, dueAt: item.dueAt, request: structuredClone(item.request) }));
  }

  async take(message: DueMessage, lease: string, leaseUntil: Date) {
    const hook = this.beforeNextTake;
    this.beforeNextTake = undefined;
    hook?.();
    const item = this.items.get(this.key(message.appId, message.messageId));
    if (item?.dueAt !== message.dueAt) return false;
    item.dueAt = leaseUntil.toISOString();
    item.lease = lease;
    return true;
  }

  async done(message: DueMessage, lease: string) {
    const key = this.key(message.appId, message.messageId);
    if (this.items.get(key)?.lease === lease) this.items.delete(key);
  }
}

/** Moves an application's send-gate clock on the local stack (PUT /local/clock); 0 puts it back. */
export async function moveClock(stack: TestStack, appId: string, offsetMs: number): Promise<void> {
  const response = await fetch(`${stack.baseUrl}/local/clock`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ app_id: appId, offset_ms: offsetMs }),
  });
  if (response.status !== 200) throw new Error(`PUT /local/clock answered ${response.status}: ${await response.text()}`);
}

/** The unsubscribe address of a marketing mail, without a key store: one fixed https URL naming the player. */
export const fakeUnsubscribe = async (app: { app_id: string }, profileId: string, topic?: string) => ({
  url: `https://casino.example/unsubscribe/${app.app_id}.${encodeURIComponent(profileId)}${topic ? `.${topic}` : ''}`,
});
