/**
 * CampaignResultsStore on the campaigns table (docs/architecture.md,
 * "Campaign results"). A campaign's figures in one partition,
 * `res#<app_id>#<campaign>`: `s#<step>` counters, `d#<day>` counters,
 * `m#<group>` money; so the results page is one Query. The player's side in
 * `rcv#<app_id>#<profile_id>`: `r#<campaign>#<group>` receipts (the money
 * window's start), and the markers that make every count happen once: `x#…`
 * per counted event (expiring after the stream's retention), `u#…`/`g#…`/`dep#…`
 * per player and unique figure (kept).
 *
 * The low-level client: money is added with ADD on DynamoDB numbers, exact
 * decimals, and read back as their text (the document client would make them
 * JavaScript numbers).
 */
import pLimit from 'p-limit';
import {
  QueryCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  ConditionalCheckFailedException,
  type AttributeValue,
  type DynamoDBClient,
  type TransactWriteItem,
} from '@aws-sdk/client-dynamodb';
import {
  ATTRIBUTION_DAYS,
  type CampaignResultsStore,
  type Counters,
  type Group,
  type MoneyDelta,
  type Receipt,
  type StoredResults,
  type TallyCounts,
  type TallyEntry,
} from '../domain/campaign-results';
import { withRetry, type RetryPolicy } from './retry';
import { cancellationReasons as reasonsOf, cancelledByConflict as conflicted } from './transactions';

const resPk = (appId: string, campaign: string) => `res#${appId}#${campaign}`;
const playerPk = (appId: string, profileId: string) => `rcv#${appId}#${profileId}`;
/** Longer than the stream keeps a record (7 days): a redelivery always finds its marker. */
const MARKER_DAYS = 8;
const DAY_S = 24 * 60 * 60;
/** Bounds a read: a campaign's steps and days (a year and more of them). */
const MAX_PAGES = 20;

const s = (value: string): AttributeValue => ({ S: value });
const n = (value: string | number): AttributeValue => ({ N: String(value) });
const key = (pk: string, sk: string) => ({ pk: s(pk), sk: s(sk) });

/** Counters on the same items from other shards' transactions: a few tries, spread out. */
const conflictRetry: RetryPolicy = { maxAttempts: 6, baseDelayMs: 25, maxDelayMs: 1_000 };
/** DynamoDB's limit on the items of one TransactWriteItems. */
const MAX_TRANSACTION_ITEMS = 100;
const RECEIPTS_IN_PARALLEL = 10;

interface MarkerKey {
  pk: string;
  sk: string;
}
const markerId = (marker: MarkerKey) => `${marker.pk}\u0000${marker.sk}`;
/** The marker of an event counted for a campaign: once per insert id and campaign. */
const eventMarker = (entry: TallyEntry): MarkerKey => ({ pk: playerPk(entry.appId, entry.profileId), sk: `x#${entry.insertId}#${entry.tally.campaign}` });

/** The entries of distinct events: a record the batch has twice counts once. */
function distinctEvents(entries: TallyEntry[]): TallyEntry[] {
  const seen = new Set<string>();
  return entries.filter((entry) => {
    const id = markerId(eventMarker(entry));
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

export class DynamoCampaignResults implements CampaignResultsStore {
  constructor(
    private readonly db: DynamoDBClient,
    private readonly tableName: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private expiresAt(days: number): AttributeValue {
    return n(Math.floor(this.now().getTime() / 1000) + days * DAY_S);
  }

  /** A marker that must not exist yet, and the updates that go with it: all or nothing; false when the marker was there. */
  private async once(marker: { pk: string; sk: string; expires?: boolean }, updates: TransactWriteItem[]): Promise<boolean> {
    return (await this.commit([this.markerPut(marker, marker.expires === true), ...updates])).length === 0;
  }

  private add(pk: string, sk: string, values: Record<string, AttributeValue>): TransactWriteItem {
    const names: Record<string, string> = {};
    const vals: Record<string, AttributeValue> = {};
    const parts = Object.entries(values).map(([name, value], i) => {
      names[`#a${i}`] = name;
      vals[`:a${i}`] = value;
      return `#a${i} :a${i}`;
    });
    return {
      Update: {
        TableName: this.tableName,
        Key: key(pk, sk),
        UpdateExpression: `ADD ${parts.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: vals,
      },
    };
  }

  async tally(entries: TallyEntry[]): Promise<TallyCounts> {
    const counts: TallyCounts = { counted: 0, repeated: 0 };
    // Markers found to be there: an event counted before, or a player's unique figure counted before.
    const known = new Set<string>();
    let pending = distinctEvents(entries);
    counts.repeated += entries.length - pending.length;
    while (pending.length > 0) {
      const fresh = pending.filter((entry) => !known.has(markerId(eventMarker(entry))));
      counts.repeated += pending.length - fresh.length;
      pending = fresh;
      if (pending.length === 0) break;
      const chunk = this.chunkOf(pending, known);
      const refused = await this.commit(chunk.items);
      if (refused.length === 0) {
        counts.counted += chunk.taken;
        pending = pending.slice(chunk.taken);
      } else {
        // Cancelled, nothing written: the markers that were there are known now, and the chunk is made again without them.
        for (const index of refused) known.add(chunk.markers[index]!);
      }
    }
    // The money window's start, whether or not the event was counted before: a crash after the count left it unwritten.
    const limit = pLimit(RECEIPTS_IN_PARALLEL);
    await Promise.all(
      entries
        .filter((entry) => entry.tally.receipt)
        .map((entry) =>
          limit(() =>
            this.receive(playerPk(entry.appId, entry.profileId), { campaign: entry.tally.campaign, group: entry.tally.receipt!, at: entry.tally.at }),
          ),
        ),
    );
    return counts;
  }

  /**
   * The next transaction: the leading events of `pending` that fit, each with its marker and the markers of the
   * unique figures it is the first of, and the counters' ADDs summed per item (an item may be in a transaction
   * once, and a campaign's counters are the same few items for every event: one write each, not one per event).
   * Leading events whose marker is known are skipped as repeated.
   */
  private chunkOf(pending: TallyEntry[], known: Set<string>): { items: TransactWriteItem[]; markers: string[]; taken: number } {
    const markers: string[] = [];
    const puts: TransactWriteItem[] = [];
    const adds = new Map<string, { pk: string; sk: string; values: Map<string, number> }>();
    const addTo = (pk: string, sk: string, name: string) => {
      const id = `${pk}\u0000${sk}`;
      const found = adds.get(id) ?? { pk, sk, values: new Map<string, number>() };
      found.values.set(name, (found.values.get(name) ?? 0) + 1);
      adds.set(id, found);
    };
    let taken = 0;
    for (const entry of pending) {
      const { appId, profileId, tally } = entry;
      const player = playerPk(appId, profileId);
      const figures = resPk(appId, tally.campaign);
      const firsts: { marker: MarkerKey; sk: string; name: string }[] = [];
      if (tally.unique)
        firsts.push({ marker: { pk: player, sk: `u#${tally.campaign}#${tally.step}#${tally.unique}` }, sk: `s#${tally.step}`, name: `${tally.unique}_unique` });
      if (tally.receipt) firsts.push({ marker: { pk: player, sk: `g#${tally.campaign}#${tally.receipt}` }, sk: `m#${tally.receipt}`, name: 'players' });
      const mine = firsts.filter((first) => !known.has(markerId(first.marker)) && !markers.includes(markerId(first.marker)));
      const counters = new Set([`s#${tally.step}`, `d#${tally.day}`, ...mine.map((first) => first.sk)].filter((sk) => !adds.has(`${figures}\u0000${sk}`)));
      if (taken > 0 && puts.length + adds.size + 1 + mine.length + counters.size > MAX_TRANSACTION_ITEMS) break;
      for (const [marker, expires] of [[eventMarker(entry), true] as const, ...mine.map((first) => [first.marker, false] as const)]) {
        markers.push(markerId(marker));
        puts.push(this.markerPut(marker, expires));
      }
      addTo(figures, `s#${tally.step}`, tally.counter);
      addTo(figures, `d#${tally.day}`, tally.counter);
      for (const first of mine) addTo(figures, first.sk, first.name);
      taken++;
    }
    const updates = [...adds.values()].map(({ pk, sk, values }) => this.add(pk, sk, Object.fromEntries([...values].map(([name, value]) => [name, n(value)]))));
    return { items: [...puts, ...updates], markers, taken };
  }

  private markerPut(marker: MarkerKey, expires: boolean): TransactWriteItem {
    return {
      Put: {
        TableName: this.tableName,
        Item: { ...key(marker.pk, marker.sk), ...(expires ? { expires_at: this.expiresAt(MARKER_DAYS) } : {}) },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }

  /** Writes the transaction; the indexes of its markers that were there already (then nothing was written), or none. */
  private async commit(items: TransactWriteItem[]): Promise<number[]> {
    if (items.length === 0) return [];
    try {
      // Another shard's transaction on the same counters conflicts now and then: a bounded retry with jitter.
      await withRetry(conflictRetry, conflicted, () => this.db.send(new TransactWriteItemsCommand({ TransactItems: items })));
      return [];
    } catch (error) {
      const refused = reasonsOf(error).flatMap((reason, index) => (reason?.Code === 'ConditionalCheckFailed' ? [index] : []));
      if (refused.length === 0) throw error;
      return refused;
    }
  }

  /** The window starts at the player's latest send: a later one moves it, an earlier (redelivered) one does not. */
  private async receive(player: string, receipt: Receipt): Promise<void> {
    try {
      await this.db.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: key(player, `r#${receipt.campaign}#${receipt.group}`),
          UpdateExpression: 'SET #at = :at, campaign = :campaign, grp = :group, expires_at = :expires',
          ConditionExpression: 'attribute_not_exists(#at) OR #at < :at',
          ExpressionAttributeNames: { '#at': 'at' },
          ExpressionAttributeValues: {
            ':at': s(receipt.at),
            ':campaign': s(receipt.campaign),
            ':group': s(receipt.group),
            ':expires': n(Math.floor(Date.parse(receipt.at) / 1000) + (ATTRIBUTION_DAYS + MARKER_DAYS) * DAY_S),
          },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async receipts(appId: string, profileId: string): Promise<Receipt[]> {
    const found: Receipt[] = [];
    let start: Record<string, AttributeValue> | undefined;
    // A player's receipts: one per campaign and group within the window (and a little after, until TTL takes them).
    for (let page = 0; page < MAX_PAGES; page++) {
      const out = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': s(playerPk(appId, profileId)), ':prefix': s('r#') },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of out.Items ?? []) {
        if (item.campaign?.S && item.at?.S && (item.grp?.S === 'recipients' || item.grp?.S === 'holdout')) {
          found.push({ campaign: item.campaign.S, group: item.grp.S as Group, at: item.at.S });
        }
      }
      start = out.LastEvaluatedKey;
      if (!start) break;
    }
    return found;
  }

  async addMoney(appId: string, profileId: string, insertId: string, delta: MoneyDelta): Promise<boolean> {
    const figures = resPk(appId, delta.campaign);
    const player = playerPk(appId, profileId);
    if (delta.deposit_count > 0) {
      await this.once({ pk: player, sk: `dep#${delta.campaign}#${delta.group}` }, [this.add(figures, `m#${delta.group}`, { depositors: n(1) })]);
    }
    return this.once({ pk: player, sk: `x#${insertId}#${delta.campaign}#${delta.group}`, expires: true }, [
      this.add(figures, `m#${delta.group}`, { deposit_count: n(delta.deposit_count), deposits: n(delta.deposits), ngr: n(delta.ngr) }),
    ]);
  }

  async read(appId: string, campaign: string): Promise<StoredResults> {
    const results: StoredResults = { steps: {}, days: {}, money: {} };
    let start: Record<string, AttributeValue> | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const out = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': s(resPk(appId, campaign)) },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of out.Items ?? []) {
        const sk = item.sk?.S ?? '';
        const [prefix, name] = [sk.slice(0, 2), sk.slice(2)];
        if (prefix === 's#') results.steps[name] = countersOf(item);
        else if (prefix === 'd#') results.days[name] = countersOf(item);
        else if (prefix === 'm#' && (name === 'recipients' || name === 'holdout')) {
          const c = countersOf(item);
          results.money[name] = {
            players: c.players ?? 0,
            depositors: c.depositors ?? 0,
            deposit_count: c.deposit_count ?? 0,
            deposits: item.deposits?.N ?? '0',
            ngr: item.ngr?.N ?? '0',
          };
        }
      }
      start = out.LastEvaluatedKey;
      if (!start) break;
    }
    return results;
  }
}

function countersOf(item: Record<string, AttributeValue>): Counters {
  const counters: Counters = {};
  for (const [name, value] of Object.entries(item)) if (value.N !== undefined && name !== 'expires_at') counters[name] = Number(value.N);
  return counters;
}
