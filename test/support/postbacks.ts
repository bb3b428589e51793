/** In-memory postback ports for core tests: an outbox with the store's claim rules, a log, settings, secrets and a scripted receiver. */
import type {
  DuePostback,
  PostbackEvent,
  PostbackLog,
  PostbackLogEntry,
  PostbackOutbox,
  PostbackResponse,
  PostbackSettingsStore,
  PostbackTransport,
} from '../../functions/domain/postbacks';

type Row = DuePostback & { postback_queue?: string };

/** A due row of affiliate aff-1 of app-1 (player-1, link-1, sub-id "spring", 2026-11-23), its event by `sk`. */
export const dueRow = (sk: string, fields: Partial<DuePostback> = {}): DuePostback => ({
  pk: 'a#app-1#aff-1',
  sk,
  app_id: 'app-1',
  affiliate_id: 'aff-1',
  profile_id: 'player-1',
  link_id: 'link-1',
  sub_id: 'spring',
  day: '2026-11-23',
  urm_date_time: '2026-11-23T09:59:00Z',
  postback_due: '2026-11-23T09:59:01Z',
  ...fields,
});

export class MemoryPostbackOutbox implements PostbackOutbox, PostbackLog {
  readonly rows = new Map<string, Row>();
  readonly log: (PostbackLogEntry & { app_id: string; affiliate_id: string })[] = [];

  add(row: DuePostback): void {
    this.rows.set(`${row.pk}\u0000${row.sk}`, { ...row, postback_queue: 'due' });
  }

  row(pk: string, sk: string): Row | undefined {
    return this.rows.get(`${pk}\u0000${sk}`);
  }

  async due(now: Date, limit: number): Promise<DuePostback[]> {
    return [...this.rows.values()]
      .filter((row) => row.postback_queue === 'due' && row.postback_due <= now.toISOString())
      .sort((a, b) => a.postback_due.localeCompare(b.postback_due))
      .slice(0, limit)
      .map((row) => ({ ...row }));
  }

  async claim(key: Pick<DuePostback, 'pk' | 'sk'>, seenDue: string, leaseUntil: string): Promise<number | undefined> {
    const row = this.row(key.pk, key.sk);
    if (!row || row.postback_due !== seenDue) return undefined;
    row.postback_due = leaseUntil;
    row.postback_attempts = (row.postback_attempts ?? 0) + 1;
    return row.postback_attempts;
  }

  async done(key: Pick<DuePostback, 'pk' | 'sk'>, claimedDue: string): Promise<void> {
    const row = this.row(key.pk, key.sk);
    if (row && row.postback_due === claimedDue) {
      delete row.postback_queue;
      row.postback_due = '';
    }
  }

  async reschedule(key: Pick<DuePostback, 'pk' | 'sk'>, claimedDue: string, at: string): Promise<void> {
    const row = this.row(key.pk, key.sk);
    if (row && row.postback_due === claimedDue) row.postback_due = at;
  }

  async append(appId: string, affiliateId: string, entry: PostbackLogEntry): Promise<void> {
    this.log.push({ app_id: appId, affiliate_id: affiliateId, ...entry });
  }

  async recent(appId: string, affiliateId: string, limit: number): Promise<PostbackLogEntry[]> {
    return this.log
      .filter((entry) => entry.app_id === appId && entry.affiliate_id === affiliateId)
      .reverse()
      .slice(0, limit)
      .map(({ app_id: _a, affiliate_id: _b, ...entry }) => entry);
  }
}

export class MemoryPostbackSettings implements PostbackSettingsStore {
  readonly urls = new Map<string, string | undefined>();
  /** The events chosen, by `app#affiliate`; absent: never chosen. */
  readonly events = new Map<string, PostbackEvent[]>();
  /** How many times get was called (the consumer's cache is judged by it). */
  reads = 0;

  async get(appId: string, affiliateId: string): Promise<{ exists: boolean; postback_url?: string; postback_events?: string[] }> {
    this.reads++;
    const key = `${appId}#${affiliateId}`;
    if (!this.urls.has(key)) return { exists: false };
    const url = this.urls.get(key);
    const events = this.events.get(key);
    return { exists: true, ...(url === undefined ? {} : { postback_url: url }), ...(events ? { postback_events: [...events] } : {}) };
  }

  async setEvents(appId: string, affiliateId: string, events: PostbackEvent[]): Promise<boolean> {
    const key = `${appId}#${affiliateId}`;
    if (!this.urls.has(key)) return false;
    this.events.set(key, [...events]);
    return true;
  }

  async set(appId: string, affiliateId: string, url: string | undefined): Promise<boolean> {
    const key = `${appId}#${affiliateId}`;
    if (!this.urls.has(key)) return false;
    this.urls.set(key, url);
    return true;
  }
}

/** Answers each call with the next scripted response (the last one repeats), and records the calls. */
export class ScriptedReceiver implements PostbackTransport {
  readonly calls: { url: string; headers: Record<string, string>; body?: string }[] = [];

  constructor(private readonly script: PostbackResponse[]) {}

  async get(url: string, headers: Record<string, string>): Promise<PostbackResponse> {
    this.calls.push({ url, headers });
    return this.script[Math.min(this.calls.length - 1, this.script.length - 1)];
  }

  /** A webhook's POST (functions/messaging/webhook.ts `WebhookTransport`). */
  async post(url: string, headers: Record<string, string>, body: string): Promise<PostbackResponse> {
    this.calls.push({ url, headers, body });
    return this.script[Math.min(this.calls.length - 1, this.script.length - 1)];
  }
}
