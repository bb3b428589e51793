import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, paginateQuery, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import pLimit from 'p-limit';
import type { TimelineEntry, TimelinePage, TimelineStore } from '../domain/timeline';
import {
  entriesOf,
  keyAfterTime,
  lookupRanges,
  newestFirstEntries,
  packPages,
  pageOf,
  PAGE_SPAN_MS,
  timeOfKey,
  type TimelinePageItem,
} from '../domain/timeline-pages';

/** Profiles written at once: each is one consistent query, then its pages. */
export const PUTS_IN_FLIGHT = 25;
/** Rewrites of one page that a concurrent change may make fail before the call gives up. */
const PAGE_ATTEMPTS = 5;

const conflict = (error: unknown) => error instanceof ConditionalCheckFailedException;

/**
 * The timeline as page items (functions/domain/timeline-pages.ts):
 * key `pk` + `sk`, `sk` the time key of the page's newest event. No index.
 */
export class DynamoTimelineStore implements TimelineStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async writeNew(entries: TimelineEntry[]): Promise<number> {
    const byProfile = new Map<string, TimelineEntry[]>();
    for (const entry of entries) byProfile.set(entry.pk, [...(byProfile.get(entry.pk) ?? []), entry]);
    const limit = pLimit(PUTS_IN_FLIGHT);
    let failure: { error: unknown } | undefined;
    let stored = 0;
    await Promise.all(
      [...byProfile].map(([pk, list]) =>
        limit(async () => {
          // After a failure the batch fails anyway: queued profiles are not written, so no write outlives the call.
          if (failure) return;
          try {
            stored += await this.writeProfile(pk, list, () => failure !== undefined);
          } catch (error) {
            failure ??= { error };
          }
        }),
      ),
    );
    if (failure) throw failure.error;
    return stored;
  }

  /** One profile's new entries: those whose insert id no page around their time holds yet, packed into pages. */
  private async writeProfile(pk: string, entries: TimelineEntry[], stop: () => boolean): Promise<number> {
    const stored = new Set((await this.pagesAround(pk, entries)).flatMap((page) => entriesOf(page).map((entry) => entry.insert_id)));
    const fresh: TimelineEntry[] = [];
    for (const entry of entries) {
      if (stored.has(entry.insert_id)) continue;
      stored.add(entry.insert_id);
      fresh.push(entry);
    }
    let written = 0;
    for (const page of packPages(pk, fresh)) {
      if (stop()) break;
      written += await this.putPage(page);
    }
    return written;
  }

  /**
   * Puts a new page; if its key is taken (a page whose newest event a delete
   * removed, or a concurrent writer), its events go into that page instead,
   * those already there left as first stored. Answers how many were added.
   */
  private async putPage(page: TimelinePageItem): Promise<number> {
    const incoming = entriesOf(page);
    for (let attempt = 0; attempt < PAGE_ATTEMPTS; attempt++) {
      const current = attempt === 0 ? undefined : await this.getPage(page.pk, page.sk);
      try {
        if (current === undefined) {
          await this.db.send(new PutCommand({ TableName: this.tableName, Item: page, ConditionExpression: 'attribute_not_exists(sk)' }));
          return incoming.length;
        }
        const there = new Set(entriesOf(current).map((entry) => entry.insert_id));
        const added = incoming.filter((entry) => !there.has(entry.insert_id));
        if (added.length === 0) return 0;
        await this.replacePage(current, [...entriesOf(current), ...added]);
        return added.length;
      } catch (error) {
        if (!conflict(error)) throw error;
      }
    }
    throw new Error(`timeline page ${page.sk} changed concurrently ${PAGE_ATTEMPTS} times in a row`);
  }

  /** Rewrites a page in place (same key) if nobody changed it since it was read; deletes it when nothing is left. */
  private async replacePage(current: TimelinePageItem, entries: TimelineEntry[]): Promise<void> {
    const unchanged = { ConditionExpression: 'ev = :ev', ExpressionAttributeValues: { ':ev': current.ev } };
    if (entries.length === 0) {
      await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: current.pk, sk: current.sk }, ...unchanged }));
    } else {
      await this.db.send(new PutCommand({ TableName: this.tableName, Item: pageOf(current.pk, current.sk, entries), ...unchanged }));
    }
  }

  private async getPage(pk: string, sk: string): Promise<TimelinePageItem | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk, sk }, ConsistentRead: true }));
    return out.Item as TimelinePageItem | undefined;
  }

  /** Every page (read consistently) that may hold one of these entries of one profile. */
  private async pagesAround(pk: string, entries: Pick<TimelineEntry, 'ts'>[]): Promise<TimelinePageItem[]> {
    const pages: TimelinePageItem[] = [];
    for (const { from, to } of lookupRanges(entries)) {
      const results = paginateQuery(
        { client: this.db },
        {
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': pk, ':from': from, ':to': to },
          ConsistentRead: true,
        },
      );
      for await (const result of results) pages.push(...((result.Items ?? []) as TimelinePageItem[]));
    }
    return pages;
  }

  async page(pk: string, limit: number, start?: Record<string, string>, only?: { event: string }): Promise<TimelinePage> {
    const before = start?.ts;
    const entries: TimelineEntry[] = [];
    let read = 0;
    // `limit` counts entries read, before the filter.
    for await (const entry of newestFirstEntries(this.pagesNewestFirst(pk, Math.ceil(limit / 3) + 2, before), before)) {
      if (only === undefined || entry.event === only.event) entries.push(entry);
      if (++read === limit) return { entries, next: { pk, insert_id: entry.insert_id, ts: entry.ts } };
    }
    return { entries };
  }

  async oldest(pk: string): Promise<TimelineEntry | undefined> {
    // The oldest page by key may not hold the oldest event (a page spans PAGE_SPAN_MS back from its key): the next
    // few pages are read with it, one query, and the oldest event among them taken.
    const out = await this.db.send(
      new QueryCommand({ TableName: this.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, Limit: 3 }),
    );
    const entries = ((out.Items ?? []) as TimelinePageItem[]).flatMap(entriesOf);
    return entries.reduce<TimelineEntry | undefined>((oldest, entry) => (oldest === undefined || entry.ts < oldest.ts ? entry : oldest), undefined);
  }

  /**
   * Pages newest first by key; from the first that may hold an entry older than `before`.
   * Lazy: the next query is sent only when the reader wants past the pages read so far.
   */
  private async *pagesNewestFirst(pk: string, pagesPerQuery: number, before?: string): AsyncGenerator<TimelinePageItem> {
    const results = paginateQuery(
      { client: this.db, pageSize: pagesPerQuery },
      {
        TableName: this.tableName,
        KeyConditionExpression: before === undefined ? 'pk = :pk' : 'pk = :pk AND sk < :upper',
        ExpressionAttributeValues: { ':pk': pk, ...(before === undefined ? {} : { ':upper': keyAfterTime(timeOfKey(before) + PAGE_SPAN_MS) }) },
        ScanIndexForward: false,
      },
    );
    for await (const result of results) yield* (result.Items ?? []) as TimelinePageItem[];
  }

  async walk(pk: string, limit: number, start?: Record<string, string>): Promise<TimelinePage> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        // A page of about 300-byte events holds three or four: a step reads about `limit` entries, never many more.
        Limit: Math.max(1, Math.ceil(limit / 4)),
        ExclusiveStartKey: start,
      }),
    );
    return {
      entries: ((out.Items ?? []) as TimelinePageItem[]).flatMap((page) => entriesOf(page).map((entry) => ({ ...entry, page: page.sk }))),
      next: out.LastEvaluatedKey as Record<string, string> | undefined,
    };
  }

  async remove(entries: Pick<TimelineEntry, 'pk' | 'insert_id' | 'ts' | 'page'>[]): Promise<void> {
    const byProfile = new Map<string, Pick<TimelineEntry, 'pk' | 'insert_id' | 'ts' | 'page'>[]>();
    for (const entry of entries) byProfile.set(entry.pk, [...(byProfile.get(entry.pk) ?? []), entry]);
    for (const [pk, list] of byProfile) {
      const gone = new Set(list.map((entry) => entry.insert_id));
      const known = [...new Set(list.flatMap((entry) => (entry.page === undefined ? [] : [entry.page])))];
      const unknown = list.filter((entry) => entry.page === undefined);
      for (let attempt = 0; ; attempt++) {
        try {
          const pages = [
            ...(await Promise.all(known.map((sk) => this.getPage(pk, sk)))).filter((page) => page !== undefined),
            ...(unknown.length > 0 ? await this.pagesAround(pk, unknown) : []),
          ];
          for (const page of pages) {
            const kept = entriesOf(page).filter((entry) => !gone.has(entry.insert_id));
            if (kept.length < entriesOf(page).length) await this.replacePage(page, kept);
          }
          break;
        } catch (error) {
          // A page changed under the rewrite: read the pages again (removing what is gone already is a no-op).
          if (!conflict(error) || attempt + 1 >= PAGE_ATTEMPTS) throw error;
        }
      }
    }
  }
}
