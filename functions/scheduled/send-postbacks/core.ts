/**
 * The postback sender: runs every minute (an EventBridge schedule in AWS, a
 * timer in the local stack), takes the due registration, FTD, CPA and deposit
 * rows from the outbox a page at a time, and calls each affiliate's postback
 * URL with a signed GET, for the events the affiliate receives. A 2xx clears the mark; anything else is tried again after 1
 * min, 2, 4, … (at most 1 h), 10 attempts in all. Every attempt is in the
 * affiliate's delivery log. At least once: a sender that dies after a call
 * and before clearing the mark calls again when the claim's lease runs out;
 * receivers deduplicate by X-Urm-Event-Id.
 */
import pLimit from 'p-limit';
import type { Plan } from '../../domain/affiliate-program';
import {
  cpaPayout,
  expandPostbackUrl,
  maskPostbackUrl,
  misplacedPlaceholderProblems,
  postbackEventId,
  postbackEventOf,
  postbackSecretName,
  postbackSignature,
  postbackValues,
  receivedEvents,
  retryDelayMs,
  type DuePostback,
  type PostbackLog,
  type PostbackEvent,
  type PostbackLogEntry,
  type PostbackOutbox,
  type PostbackResponse,
  type PostbackSettingsStore,
  type PostbackTransport,
} from '../../domain/postbacks';
import type { SecretStore } from '../../domain/secrets';

export interface SendPostbacksDeps {
  outbox: PostbackOutbox;
  log: PostbackLog;
  settings: PostbackSettingsStore;
  secrets: Pick<SecretStore, 'get'>;
  /** The application's main currency (the FTD amount's), undefined for an unknown application. */
  currency: (appId: string) => Promise<string | undefined>;
  transport: PostbackTransport;
  /** The plan in force for the affiliate on a day: a CPA's payout (functions/back-office/postbacks.ts `payoutPlan`). */
  payoutPlan: (appId: string, affiliateId: string, day: string) => Promise<Plan | undefined>;
  now: () => Date;
  /** How long the invocation has left, in ms: no new page starts with less than `reserveMs`. */
  remainingMs?: () => number;
  pageSize?: number;
  concurrency?: number;
}

export interface PostbackRunCounts {
  due: number;
  delivered: number;
  retrying: number;
  failed: number;
  /** Affiliates without a postback URL or that no longer receive the event, and FTDs that earned no CPA: the mark is cleared, nothing is sent. */
  skipped: number;
}

export const sendPostbackDefaults = {
  pageSize: 100,
  concurrency: 10,
  /** A claimed row is due again after this if its sender dies mid-attempt: well beyond one attempt's 5 s. */
  leaseMs: 5 * 60_000,
  /** A page takes at most pageSize / concurrency × 5 s. */
  reserveMs: 55_000,
  maxPages: 20,
} as const;

const succeeded = (response: PostbackResponse) => 'status' in response && response.status >= 200 && response.status < 300;

export function sendPostbacks(deps: SendPostbacksDeps) {
  return async (): Promise<PostbackRunCounts> => {
    const counts: PostbackRunCounts = { due: 0, delivered: 0, retrying: 0, failed: 0, skipped: 0 };
    const pageSize = deps.pageSize ?? sendPostbackDefaults.pageSize;
    const limit = pLimit(deps.concurrency ?? sendPostbackDefaults.concurrency);
    // One read of each affiliate's settings and secret, and of each plan a CPA needs, per run.
    const affiliates = new Map<string, Promise<Affiliate>>();
    const affiliateOf = (row: DuePostback) => {
      const key = `${row.app_id}\u0000${row.affiliate_id}`;
      if (!affiliates.has(key)) {
        affiliates.set(
          key,
          (async () => {
            const settings = await deps.settings.get(row.app_id, row.affiliate_id);
            if (settings.postback_url === undefined) return { events: [] };
            const secret = await deps.secrets.get(postbackSecretName(row.app_id, row.affiliate_id));
            return { url: settings.postback_url, secret, events: receivedEvents(settings) };
          })(),
        );
      }
      return affiliates.get(key)!;
    };
    const plans = new Map<string, Promise<Plan | undefined>>();
    const planOf = (row: DuePostback) => {
      const key = `${row.app_id}\u0000${row.affiliate_id}\u0000${row.day}`;
      if (!plans.has(key)) plans.set(key, deps.payoutPlan(row.app_id, row.affiliate_id, row.day));
      return plans.get(key)!;
    };

    for (let page = 0; page < sendPostbackDefaults.maxPages; page++) {
      if (deps.remainingMs && deps.remainingMs() < sendPostbackDefaults.reserveMs) break;
      const rows = await deps.outbox.due(deps.now(), pageSize);
      counts.due += rows.length;
      const outcomes = await Promise.allSettled(rows.map((row) => limit(() => deliver(deps, row, affiliateOf, planOf))));
      for (const outcome of outcomes) if (outcome.status === 'fulfilled' && outcome.value) counts[outcome.value]++;
      const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      if (failed) throw failed.reason;
      if (rows.length < pageSize) break;
    }
    return counts;
  };
}

interface Affiliate {
  url?: string;
  secret?: string;
  events: PostbackEvent[];
}

async function deliver(
  deps: SendPostbacksDeps,
  row: DuePostback,
  affiliateOf: (row: DuePostback) => Promise<Affiliate>,
  planOf: (row: DuePostback) => Promise<Plan | undefined>,
): Promise<Exclude<keyof PostbackRunCounts, 'due'> | undefined> {
  const now = deps.now();
  const lease = new Date(now.getTime() + sendPostbackDefaults.leaseMs).toISOString();
  const attempts = await deps.outbox.claim(row, row.postback_due, lease);
  if (attempts === undefined) return undefined; // another sender took it
  const event = postbackEventOf(row);
  const { url: template, secret, events } = await affiliateOf(row);
  // Switched off since the row was written (or never on, for registration and FTD rows), or an FTD below the deal's
  // minimum (or under a deal without CPA): nothing to send.
  const payout =
    template === undefined || !events.includes(event) ? undefined : event === 'cpa' ? cpaPayout(await planOf(row), { amount: row.amount ?? '0' }) : '';
  if (template === undefined || payout === undefined) {
    await deps.outbox.done(row, lease);
    return 'skipped';
  }
  const eventId = postbackEventId(row.pk, row.sk);
  let response: PostbackResponse;
  let called: string | undefined;
  const misplaced = misplacedPlaceholderProblems(template);
  if (secret === undefined) {
    response = { error: 'the affiliate has no signing secret: rotate it' };
  } else if (misplaced.length > 0) {
    response = { error: `${misplaced.join('; ')}: set the URL again` };
  } else {
    const url = expandPostbackUrl(template, postbackValues(row, (await deps.currency(row.app_id)) ?? '', payout));
    called = url;
    const timestamp = String(Math.floor(now.getTime() / 1000));
    response = await deps.transport.get(url, {
      'X-Urm-Event-Id': eventId,
      'X-Urm-Event': event,
      'X-Urm-Timestamp': timestamp,
      'X-Urm-Signature': postbackSignature(secret, timestamp, url),
    });
  }

  const at = deps.now();
  const entry: PostbackLogEntry = {
    event_id: eventId,
    event,
    at: at.toISOString(),
    attempts,
    outcome: 'delivered',
    // Masked: the log is read by people and kept 90 days; the affiliate's tokens stay in its template only.
    ...(called === undefined ? {} : { url: maskPostbackUrl(called) }),
    ...('status' in response ? { status_code: response.status } : { error: response.error }),
  };
  if (succeeded(response)) {
    await deps.log.append(row.app_id, row.affiliate_id, entry);
    await deps.outbox.done(row, lease);
    return 'delivered';
  }
  const delay = retryDelayMs(attempts);
  if (delay === undefined) {
    await deps.log.append(row.app_id, row.affiliate_id, { ...entry, outcome: 'failed' });
    await deps.outbox.done(row, lease);
    return 'failed';
  }
  await deps.log.append(row.app_id, row.affiliate_id, { ...entry, outcome: 'retrying' });
  await deps.outbox.reschedule(row, lease, new Date(at.getTime() + delay).toISOString());
  return 'retrying';
}
