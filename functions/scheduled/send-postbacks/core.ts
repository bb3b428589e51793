/**
 * The postback sender: runs every minute (an EventBridge schedule in AWS, a
 * timer in the local stack), takes the due registration and FTD rows from the
 * outbox a page at a time, and calls each affiliate's postback URL with a
 * signed GET. A 2xx clears the mark; anything else is tried again after 1
 * min, 2, 4, … (at most 1 h), 10 attempts in all. Every attempt is in the
 * affiliate's delivery log. At least once: a sender that dies after a call
 * and before clearing the mark calls again when the claim's lease runs out;
 * receivers deduplicate by X-Urm-Event-Id.
 */
import pLimit from 'p-limit';
import {
  expandPostbackUrl,
  misplacedPlaceholderProblems,
  postbackEventId,
  postbackEventOf,
  postbackSecretName,
  postbackSignature,
  postbackValues,
  retryDelayMs,
  type DuePostback,
  type PostbackLog,
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
  /** Affiliates without a postback URL: the mark is cleared, nothing is sent. */
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
    // One read of each affiliate's settings and secret per run.
    const affiliates = new Map<string, Promise<{ url?: string; secret?: string }>>();
    const affiliateOf = (row: DuePostback) => {
      const key = `${row.app_id}\u0000${row.affiliate_id}`;
      if (!affiliates.has(key)) {
        affiliates.set(
          key,
          (async () => {
            const { postback_url: url } = await deps.settings.get(row.app_id, row.affiliate_id);
            if (url === undefined) return {};
            return { url, secret: await deps.secrets.get(postbackSecretName(row.app_id, row.affiliate_id)) };
          })(),
        );
      }
      return affiliates.get(key)!;
    };

    for (let page = 0; page < sendPostbackDefaults.maxPages; page++) {
      if (deps.remainingMs && deps.remainingMs() < sendPostbackDefaults.reserveMs) break;
      const rows = await deps.outbox.due(deps.now(), pageSize);
      counts.due += rows.length;
      const outcomes = await Promise.allSettled(rows.map((row) => limit(() => deliver(deps, row, affiliateOf))));
      for (const outcome of outcomes) if (outcome.status === 'fulfilled' && outcome.value) counts[outcome.value]++;
      const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      if (failed) throw failed.reason;
      if (rows.length < pageSize) break;
    }
    return counts;
  };
}

async function deliver(
  deps: SendPostbacksDeps,
  row: DuePostback,
  affiliateOf: (row: DuePostback) => Promise<{ url?: string; secret?: string }>,
): Promise<Exclude<keyof PostbackRunCounts, 'due'> | undefined> {
  const now = deps.now();
  const lease = new Date(now.getTime() + sendPostbackDefaults.leaseMs).toISOString();
  const attempts = await deps.outbox.claim(row, row.postback_due, lease);
  if (attempts === undefined) return undefined; // another sender took it
  const { url: template, secret } = await affiliateOf(row);
  if (template === undefined) {
    await deps.outbox.done(row, lease);
    return 'skipped';
  }
  const eventId = postbackEventId(row.pk, row.sk);
  let response: PostbackResponse;
  const misplaced = misplacedPlaceholderProblems(template);
  if (secret === undefined) {
    response = { error: 'the affiliate has no signing secret: rotate it' };
  } else if (misplaced.length > 0) {
    response = { error: `${misplaced.join('; ')}: set the URL again` };
  } else {
    const url = expandPostbackUrl(template, postbackValues(row, (await deps.currency(row.app_id)) ?? ''));
    const timestamp = String(Math.floor(now.getTime() / 1000));
    response = await deps.transport.get(url, {
      'X-Urm-Event-Id': eventId,
      'X-Urm-Event': postbackEventOf(row),
      'X-Urm-Timestamp': timestamp,
      'X-Urm-Signature': postbackSignature(secret, timestamp, url),
    });
  }

  const at = deps.now();
  const entry: PostbackLogEntry = {
    event_id: eventId,
    event: postbackEventOf(row),
    at: at.toISOString(),
    attempts,
    outcome: 'delivered',
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
