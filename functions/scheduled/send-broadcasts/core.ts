/**
 * The broadcast sender (docs/api.md, "Broadcasts"): every minute in AWS,
 * every second locally. It finds the broadcasts whose start time has come
 * (the campaigns table's sparse `due` index), begins them, takes each one's
 * snapshot of the segment's members a page at a time (resumable: the cursor
 * moves only with the page's count, conditionally), and sends what is due
 * in one-second ticks of at most the application's rate. Per recipient: a
 * conditional take (a lease, so overlapping runs never both take it and a
 * run that dies leaves it to the next), the template sender (the gate, and
 * its message-id claim, so a crash between the send and the settle never
 * sends twice), then the settle, which counts the outcome once. The status
 * is read again each tick: a pause or cancel stops it within the run.
 */
import pLimit from 'p-limit';
import type { App } from '../../domain/apps';
import {
  begin,
  broadcastMessageId,
  broadcastRate,
  finish,
  heldOut,
  holdoutEvent,
  recipientDue,
  sendable,
  type Broadcast,
  type BroadcastStore,
  type DueRecipient,
  type RecipientOutcome,
  type Settled,
  type SnapshotPage,
} from '../../domain/broadcasts';
import type { AttributeValue } from '../../domain/attributes';
import { toStreamEntries, type RecordWriter } from '../../domain/ingest';
import type { SegmentStore } from '../../domain/segments/model';
import { playerTimeZone } from '../../domain/send-gate';
import { partitionKey } from '../../domain/stream-record';
import type { ProfileStore } from '../../domain/timeline';
import type { TemplateSendOutcome, TemplateSendRequest } from '../../messaging/send-template';

export interface SendBroadcastsDeps {
  broadcasts: BroadcastStore;
  segments: Pick<SegmentStore, 'members'>;
  /** Players' time zones, for a broadcast at local time. */
  profiles: Pick<ProfileStore, 'getMany'>;
  apps: { get(appId: string): Promise<Pick<App, 'messaging'> | undefined> };
  /** The template sender (functions/messaging/send-template.ts): the gate, and its message-id claim. */
  send: (request: TemplateSendRequest) => Promise<TemplateSendOutcome>;
  /** The stream, for `urm_campaign_holdout` of the members held out. */
  writer: RecordWriter;
  /** The application's clock (functions/runtime/clock.ts). */
  appTime: (appId: string) => Date;
  /** How far ahead of real time the furthest application's clock is. */
  aheadMs: () => number;
  now: () => Date;
  newId: () => string;
  /** Waits out the rest of a tick. */
  sleep: (ms: number) => Promise<void>;
  remainingMs?: () => number;
}

export interface SendBroadcastsCounts {
  broadcasts: number;
  snapshotted: number;
  taken: number;
  sent: number;
  suppressed: number;
  deferred: number;
  duplicate: number;
  failed: number;
  /** Sends that threw: the lease runs out and a later run tries again. */
  retried: number;
}

export const sendBroadcastsDefaults = {
  /** Broadcasts looked at per run. */
  broadcasts: 20,
  /** Members per snapshot page (SegmentStore.members). */
  pageSize: 100,
  /** A recipient taken is left alone this long: a run that dies hands it to a later one. */
  leaseMs: 5 * 60_000,
  /** A recipient whose send threw this many times is given up as failed. */
  maxAttempts: 3,
  /**
   * Sends at once within a tick: a fifth of the tick's count, so each send (about 20 DynamoDB calls and the
   * provider's) has 200 ms of the second to reach the application's rate; at least 16, at most 40, under the 50
   * connections an AWS SDK client keeps (past them requests queue and the SDK warns on the console).
   */
  minConcurrency: 16,
  maxConcurrency: 40,
  tickMs: 1000,
  /** Nothing new starts with less than this left of the invocation. */
  reserveMs: 15_000,
  /** The due index is eventually consistent: a broadcast is done only this long after its snapshot, with nothing left. */
  settleMs: 5_000,
} as const;

/** How many of a tick's `count` sends run at once (sendBroadcastsDefaults). */
export function broadcastConcurrency(count: number): number {
  return Math.min(sendBroadcastsDefaults.maxConcurrency, Math.max(sendBroadcastsDefaults.minConcurrency, Math.ceil(count / 5)));
}

interface Work {
  broadcast: Broadcast;
  rate: number;
  timeZone?: string;
  settings: App['messaging'];
}

export function runSendBroadcasts(deps: SendBroadcastsDeps) {
  const d = sendBroadcastsDefaults;
  return async (): Promise<SendBroadcastsCounts> => {
    const counts: SendBroadcastsCounts = { broadcasts: 0, snapshotted: 0, taken: 0, sent: 0, suppressed: 0, deferred: 0, duplicate: 0, failed: 0, retried: 0 };
    const timeLeft = () => (deps.remainingMs?.() ?? Number.POSITIVE_INFINITY) > d.reserveMs;
    const by = new Date(deps.now().getTime() + deps.aheadMs());
    let work: Work[] = [];
    for (const { appId, broadcastId } of await deps.broadcasts.active(by, d.broadcasts)) {
      let broadcast = await deps.broadcasts.get(appId, broadcastId);
      if (!broadcast || !sendable(broadcast, deps.appTime(appId))) continue;
      if (broadcast.status === 'scheduled') {
        const begun = begin(broadcast, deps.appTime(appId));
        if (!(await deps.broadcasts.transition(begun, 'scheduled'))) continue;
        broadcast = begun;
      }
      const app = await deps.apps.get(appId);
      work.push({ broadcast, rate: broadcastRate(app?.messaging), settings: app?.messaging });
    }
    counts.broadcasts = work.length;

    while (work.length > 0 && timeLeft()) {
      const tickStart = deps.now().getTime();
      const next: Work[] = [];
      for (const item of work) {
        if (!timeLeft()) break;
        // Read again each tick: a pause or cancel takes effect now.
        const current = await deps.broadcasts.get(item.broadcast.app_id, item.broadcast.broadcast_id);
        if (current?.status !== 'running') continue;
        const state = { ...item, broadcast: current };
        const appNow = deps.appTime(current.app_id);
        if (!current.snapshot.done) {
          counts.snapshotted += await snapshot(state, appNow, Math.ceil(state.rate / d.pageSize) + 1);
        }
        const due = await deps.broadcasts.due(current.app_id, current.broadcast_id, appNow, state.rate);
        await sendAll(state.broadcast, due, counts, appNow, timeLeft);
        if (due.length > 0 || !current.snapshot.done) {
          next.push(state);
          continue;
        }
        const finishedSnapshotAt = Date.parse(current.snapshot.done_at ?? current.updated_at);
        if (appNow.getTime() - finishedSnapshotAt < d.settleMs) {
          next.push(state);
          continue;
        }
        if (!(await deps.broadcasts.pending(current.app_id, current.broadcast_id))) {
          await deps.broadcasts.transition(finish(current, appNow), 'running');
        }
        // Recipients due later (a local time) or held by another run: a later run looks again.
      }
      work = next;
      if (work.length === 0) break;
      const rest = tickStart + d.tickMs - deps.now().getTime();
      if (rest > 0) await deps.sleep(rest);
    }
    return counts;
  };

  /** Up to `pages` pages of members into recipients; returns how many members. */
  async function snapshot(state: Work, appNow: Date, pages: number): Promise<number> {
    const { broadcast } = state;
    let taken = 0;
    let cursor = broadcast.snapshot.cursor;
    for (let i = 0; i < pages; i++) {
      const found = await deps.segments.members(broadcast.app_id, broadcast.segment_id, sendBroadcastsDefaults.pageSize, cursor);
      const ids = found.members.map((member) => member.profile_id);
      const page: SnapshotPage = { recipients: [], heldOut: [] };
      const zones = broadcast.schedule.kind === 'local' ? await timeZones(broadcast.app_id, ids, state.settings) : undefined;
      for (const profileId of ids) {
        if (heldOut(broadcast.broadcast_id, profileId, broadcast.holdout_percent)) page.heldOut.push(profileId);
        else page.recipients.push({ profileId, dueAt: recipientDue(broadcast.schedule, zones?.get(profileId) ?? 'UTC', appNow).toISOString() });
      }
      await deps.broadcasts.putRecipients(broadcast.app_id, broadcast.broadcast_id, page);
      if (page.heldOut.length > 0) {
        const events = page.heldOut.map((id) => holdoutEvent(broadcast.app_id, broadcast.broadcast_id, id, appNow));
        const receipt = await deps.writer.write(toStreamEntries('event', events, broadcast.app_id, { newId: deps.newId, now: () => appNow }));
        // Before the cursor moves: a page whose events did not all land is taken again (their insert ids keep one each).
        if (receipt.FailedRecordCount > 0) throw new Error('the stream refused urm_campaign_holdout events');
      }
      const to = { ...(found.next ? { cursor: found.next } : {}), done: !found.next };
      // Another run moved it first: that run goes on; this one stops taking pages.
      if (!(await deps.broadcasts.advanceSnapshot(broadcast.app_id, broadcast.broadcast_id, cursor, to, page, appNow))) break;
      taken += ids.length;
      cursor = found.next;
      if (!found.next) break;
    }
    return taken;
  }

  async function timeZones(appId: string, profileIds: string[], settings: App['messaging']): Promise<Map<string, string>> {
    const stored = await deps.profiles.getMany(
      profileIds.map((id) => partitionKey(appId, id)),
      ['pk', 'attrs', 'exists'],
    );
    return new Map(
      profileIds.map((id) => {
        const profile = stored.get(partitionKey(appId, id));
        const attributes = profile?.exists ? (JSON.parse(profile.attrs) as Record<string, AttributeValue | null>) : {};
        return [id, playerTimeZone(attributes, settings)];
      }),
    );
  }

  async function sendAll(broadcast: Broadcast, due: DueRecipient[], counts: SendBroadcastsCounts, appNow: Date, timeLeft: () => boolean): Promise<void> {
    const limit = pLimit(broadcastConcurrency(due.length));
    const settled: Settled[] = [];
    await Promise.all(
      due.map((recipient) =>
        limit(async () => {
          // A slow tick stops taking at the reserve too: what it leaves is still due for the next run.
          if (!timeLeft()) return;
          const lease = deps.newId();
          if (!(await deps.broadcasts.take(recipient, lease, new Date(appNow.getTime() + sendBroadcastsDefaults.leaseMs)))) return;
          counts.taken++;
          let outcome: TemplateSendOutcome | RecipientOutcome;
          try {
            outcome = await deps.send({
              appId: broadcast.app_id,
              profileId: recipient.profileId,
              templateId: broadcast.template_id,
              purpose: broadcast.purpose,
              ...(broadcast.topic !== undefined ? { topic: broadcast.topic } : {}),
              messageId: broadcastMessageId(broadcast.app_id, broadcast.broadcast_id, recipient.profileId),
              campaign: { kind: 'broadcast', id: broadcast.broadcast_id },
            });
          } catch {
            if (recipient.attempts + 1 < sendBroadcastsDefaults.maxAttempts) {
              // The lease runs out and a later run asks again.
              counts.retried++;
              return;
            }
            outcome = { status: 'failed', reason: 'error' };
          }
          counts[outcome.status]++;
          // Still pending under this lease, so no earlier attempt was counted: one that sent and died before settling.
          settled.push({ recipient, lease, outcome: outcome.status === 'duplicate' ? { status: 'sent' } : outcome });
        }),
      ),
    );
    // One write per hundred: the counts on the broadcast are one item, which concurrent writes would contend for.
    if (settled.length > 0) await deps.broadcasts.settle(settled);
  }
}
