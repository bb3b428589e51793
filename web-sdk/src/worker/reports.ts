/**
 * Lifecycle reports are written to a queue first and sent from it, so that a
 * report whose request fails, or that the write receipt says was not written,
 * stays there and goes with the next attempt (the next push, click or close,
 * or the worker's next activation). Nothing is dropped silently: a report the
 * service refuses for good, or one pushed out of a full queue, is logged to
 * the console.
 */
import { UrmApiError, writeRecords, type ApiConfig } from '../shared/api';
import type { Fields } from '../shared/records';

export interface QueuedReport {
  /** The report's urm_insert_id: queuing the same report twice keeps one. */
  id: string;
  /** When it was queued (ms), to drop the oldest first from a full queue. */
  at: number;
  record: Fields;
}

export interface ReportQueue {
  put(reports: QueuedReport[]): Promise<void>;
  all(): Promise<QueuedReport[]>;
  remove(ids: string[]): Promise<void>;
}

export const MAX_QUEUED_REPORTS = 200;

/** What a send left to send again (all of it after a failure worth retrying, none once written), or 'refused' for good. */
export type SendOutcome = Fields[] | 'refused';

/** Adds reports, keeping at most MAX_QUEUED_REPORTS (the oldest go, with a warning). */
export async function enqueue(queue: ReportQueue, records: Fields[], now: number): Promise<void> {
  await queue.put(records.map((record) => ({ id: String(record.urm_insert_id), at: now, record })));
  const queued = await queue.all();
  if (queued.length <= MAX_QUEUED_REPORTS) return;
  const oldest = [...queued].sort((a, b) => a.at - b.at).slice(0, queued.length - MAX_QUEUED_REPORTS);
  console.warn(`urmNotification: ${oldest.length} unsent notification report(s) dropped, the queue is full`);
  await queue.remove(oldest.map((report) => report.id));
}

/** Sends everything queued in one request; what the service wrote, or refused for good, leaves the queue. */
export async function flush(queue: ReportQueue, send: (records: Fields[]) => Promise<SendOutcome>): Promise<void> {
  const queued = await queue.all();
  if (queued.length === 0) return;
  const outcome = await send(queued.map((report) => report.record));
  if (outcome === 'refused') console.error(`urmNotification: the service refused ${queued.length} notification report(s)`);
  const unsent = new Set(outcome === 'refused' ? [] : outcome);
  const done = queued.filter((report) => !unsent.has(report.record));
  if (done.length > 0) await queue.remove(done.map((report) => report.id));
}

/**
 * POST /events with the browser key, re-sending what the receipt says failed
 * (writeRecords). A network failure, a 5xx, 429, 408, or a 403 (an origin or
 * key being fixed) is worth retrying; another 4xx will never succeed.
 */
export async function sendReports(
  config: ApiConfig,
  records: Fields[],
  fetchImpl: typeof fetch = fetch,
  wait?: (ms: number) => Promise<void>,
): Promise<SendOutcome> {
  try {
    return await writeRecords(config, '/events', records, fetchImpl, wait);
  } catch (error) {
    if (!(error instanceof UrmApiError)) return records;
    const retry = error.status >= 500 || error.status === 429 || error.status === 408 || error.status === 403;
    return retry ? records : 'refused';
  }
}
