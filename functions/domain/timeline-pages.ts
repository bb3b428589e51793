/**
 * How timeline entries are stored: the events of one profile written together
 * are packed into page items of at most one write unit (1 KB), so the events
 * of a batch share write units; a lone event is one page, one unit.
 *
 * A page's sort key is the time key (`ts`) of its newest event, and every
 * event of a page is at most PAGE_SPAN_MS older than that: pages read newest
 * first by sort key come out in time order once a reader holds back what an
 * unread page may still hold (at most PAGE_SPAN_MS of look-ahead), and the
 * pages that may hold a given event are found in one bounded key range.
 */
import { timeKey, type TimelineEntry } from './timeline';

/** One write unit. */
export const PAGE_BYTES = 1024;
/** How far a page's oldest event may be from its newest. */
export const PAGE_SPAN_MS = 60_000;

export interface TimelinePageItem {
  /** app_id#profile_id */
  pk: string;
  /** The time key of the page's newest event when it was written: no event of the page is newer. */
  sk: string;
  /** The events as a JSON array, newest first, in their short stored form. */
  ev: string;
}

/** An event as a page stores it: pk and ts are the page's and derived. */
interface StoredEvent {
  i: string;
  e: string;
  t: string;
  r: string;
  s: string;
  q: string;
  /** Custom attributes: the entry's JSON, embedded as it is. */
  a: unknown;
  m?: string;
}

const storedForm = (entry: TimelineEntry): string =>
  `{"i":${JSON.stringify(entry.insert_id)},"e":${JSON.stringify(entry.event)},"t":${JSON.stringify(entry.urm_date_time)},` +
  `"r":${JSON.stringify(entry.received_at)},"s":${JSON.stringify(entry.shard)},"q":${JSON.stringify(entry.seq)},"a":${entry.attrs}` +
  `${entry.merged_from === undefined ? '' : `,"m":${JSON.stringify(entry.merged_from)}`}}`;

/** The milliseconds of a time key (`<ISO time>#<insert id>`). */
export const timeOfKey = (key: string): number => Date.parse(key.slice(0, key.indexOf('#')));

/** The lowest key above every key whose time is at most `ms`. */
export const keyAfterTime = (ms: number): string => new Date(ms + 1).toISOString();

/** DynamoDB's size of a page item: attribute names and values (UTF-8). */
export function pageItemBytes(pk: string, sk: string, ev: string): number {
  return Buffer.byteLength(`pk${pk}sk${sk}ev${ev}`, 'utf8');
}

const newestFirst = (a: TimelineEntry, b: TimelineEntry) => (a.ts < b.ts ? 1 : a.ts > b.ts ? -1 : 0);

/**
 * Packs one profile's entries into pages: newest first, a page closed when the
 * next event would take it past one write unit or PAGE_SPAN_MS. An event
 * larger than a unit on its own is a page of its own.
 */
export function packPages(pk: string, entries: TimelineEntry[]): TimelinePageItem[] {
  const pages: TimelinePageItem[] = [];
  let sk = '';
  let parts: string[] = [];
  const close = () => {
    if (parts.length > 0) pages.push({ pk, sk, ev: `[${parts.join(',')}]` });
    parts = [];
  };
  for (const entry of [...entries].sort(newestFirst)) {
    const part = storedForm(entry);
    if (parts.length > 0) {
      const tooOld = timeOfKey(sk) - timeOfKey(entry.ts) > PAGE_SPAN_MS;
      const tooBig = pageItemBytes(pk, sk, `[${parts.join(',')},${part}]`) > PAGE_BYTES;
      if (tooOld || tooBig) close();
    }
    if (parts.length === 0) sk = entry.ts;
    parts.push(part);
  }
  close();
  return pages;
}

/** The entries of a page, newest first. */
export function entriesOf(page: Pick<TimelinePageItem, 'pk' | 'ev'>): TimelineEntry[] {
  return (JSON.parse(page.ev) as StoredEvent[]).map((stored) => ({
    pk: page.pk,
    insert_id: stored.i,
    ts: timeKey(stored.t, stored.i),
    event: stored.e,
    urm_date_time: stored.t,
    received_at: stored.r,
    shard: stored.s,
    seq: stored.q,
    attrs: JSON.stringify(stored.a),
    ...(stored.m === undefined ? {} : { merged_from: stored.m }),
  }));
}

/** The page holding `entries` (all of one profile), under a given key: for rewriting a page in place. */
export function pageOf(pk: string, sk: string, entries: TimelineEntry[]): TimelinePageItem {
  return { pk, sk, ev: `[${[...entries].sort(newestFirst).map(storedForm).join(',')}]` };
}

/**
 * The entries of pages read newest first by sort key, in time order (newest
 * first), only those strictly older than `before` when given. An entry is let
 * out once no unread page can hold a newer one: every entry of an unread page
 * is at most that page's key, which is at most the key of the page just read.
 */
export async function* newestFirstEntries(pages: AsyncIterable<TimelinePageItem>, before?: string): AsyncGenerator<TimelineEntry> {
  let held: TimelineEntry[] = [];
  for await (const page of pages) {
    while (held.length > 0 && held[0].ts > page.sk) yield held.shift()!;
    const fresh = entriesOf(page).filter((entry) => before === undefined || entry.ts < before);
    if (fresh.length > 0) held = [...held, ...fresh].sort(newestFirst);
  }
  yield* held;
}

/**
 * A re-send is recognised by its insert id when its urm_date_time is within
 * this of the first one's: a client that re-sends the same record sends the
 * same time, and one that stamps its retry anew (the console's) does so soon.
 */
export const RESEND_DRIFT_MS = 60_000;

/**
 * The key ranges where pages may hold an event with the insert id of one of
 * these (one profile's) entries, at most RESEND_DRIFT_MS apart in time: a run
 * of entries close in time is one range, from RESEND_DRIFT_MS before its
 * oldest to RESEND_DRIFT_MS + PAGE_SPAN_MS after its newest.
 */
export function lookupRanges(entries: Pick<TimelineEntry, 'ts'>[]): { from: string; to: string }[] {
  const reach = RESEND_DRIFT_MS + PAGE_SPAN_MS;
  const runs: { oldest: number; newest: number }[] = [];
  for (const time of entries.map((entry) => timeOfKey(entry.ts)).sort((a, b) => a - b)) {
    const last = runs[runs.length - 1];
    if (last !== undefined && time - last.newest <= RESEND_DRIFT_MS + reach) last.newest = time;
    else runs.push({ oldest: time, newest: time });
  }
  return runs.map(({ oldest, newest }) => ({ from: new Date(oldest - RESEND_DRIFT_MS).toISOString(), to: keyAfterTime(newest + reach) }));
}
