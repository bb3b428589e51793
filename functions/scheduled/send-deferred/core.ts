/**
 * The deferred sender: messages the send gate held for quiet hours, sent when
 * the window has ended in the application's time (every minute in AWS,
 * every second locally). Per message: a conditional update takes it (its due
 * time moves ahead as a lease, so overlapping runs never both take it and a
 * run that dies leaves it to the next), the gate is asked again (it may now
 * refuse, or defer once more), and the message goes once: the gate claims
 * its id before the provider call. Then it is deleted, if this run still
 * holds it.
 */
import type { DueQueue, GatedOptions, GatedOutcome, GatedRequest } from '../../messaging/gated';

export type { DueMessage, DueQueue } from '../../messaging/gated';

export interface SendDeferredDeps {
  queue: DueQueue;
  send: (request: GatedRequest, options: GatedOptions) => Promise<GatedOutcome>;
  /** The application's clock (functions/runtime/clock.ts). */
  appTime: (appId: string) => Date;
  /** How far ahead of real time the furthest application's clock is. */
  aheadMs: () => number;
  now: () => Date;
  newId: () => string;
  remainingMs?: () => number;
  batchSize?: number;
}

export interface SendDeferredCounts {
  due: number;
  taken: number;
  sent: number;
  suppressed: number;
  deferred: number;
  duplicate: number;
  failed: number;
}

export const sendDeferredDefaults = {
  /** Messages looked at per partition per run: the next run takes the rest. */
  batchSize: 50,
  /** A message taken is left alone this long: a run that dies hands it to a later one. */
  leaseMs: 5 * 60_000,
  /** Nothing new starts with less than this left of the invocation. */
  reserveMs: 15_000,
} as const;

export function runSendDeferred(deps: SendDeferredDeps) {
  return async (): Promise<SendDeferredCounts> => {
    const counts: SendDeferredCounts = { due: 0, taken: 0, sent: 0, suppressed: 0, deferred: 0, duplicate: 0, failed: 0 };
    const timeLeft = () => (deps.remainingMs?.() ?? Number.POSITIVE_INFINITY) > sendDeferredDefaults.reserveMs;
    // Due times are in each application's time: look as far ahead as the furthest clock, then ask each its own.
    const by = new Date(deps.now().getTime() + deps.aheadMs());
    for (const partition of deps.queue.partitions) {
      if (!timeLeft()) break;
      const due = await deps.queue.due(partition, by, deps.batchSize ?? sendDeferredDefaults.batchSize);
      for (const message of due) {
        if (!timeLeft()) break;
        const appNow = deps.appTime(message.appId);
        if (Date.parse(message.dueAt) > appNow.getTime()) continue;
        counts.due++;
        const lease = deps.newId();
        if (!(await deps.queue.take(message, lease, new Date(appNow.getTime() + sendDeferredDefaults.leaseMs)))) continue;
        counts.taken++;
        try {
          const outcome = await deps.send(message.request, { lease });
          if (outcome.status === 'deferred') {
            // The gate moved its due time under this lease: it stays.
            counts.deferred++;
            continue;
          }
          counts[outcome.status === 'sent' ? 'sent' : outcome.status === 'suppressed' ? 'suppressed' : 'duplicate']++;
          await deps.queue.done(message, lease);
        } catch {
          // A failed read or send: the lease runs out and a later run asks the gate again.
          counts.failed++;
        }
      }
    }
    return counts;
  };
}
