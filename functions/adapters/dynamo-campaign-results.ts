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
import {
  QueryCommand,
  TransactionCanceledException,
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
  type Tally,
} from '../domain/campaign-results';

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

const conditionFailed = (error: unknown) =>
  error instanceof TransactionCanceledException && (error.CancellationReasons ?? []).some((reason) => reason.Code === 'ConditionalCheckFailed');

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
    const put: TransactWriteItem = {
      Put: {
        TableName: this.tableName,
        Item: { ...key(marker.pk, marker.sk), ...(marker.expires ? { expires_at: this.expiresAt(MARKER_DAYS) } : {}) },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
    try {
      await this.db.send(new TransactWriteItemsCommand({ TransactItems: [put, ...updates] }));
      return true;
    } catch (error) {
      if (conditionFailed(error)) return false;
      throw error;
    }
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

  async tally(appId: string, profileId: string, insertId: string, tally: Tally): Promise<boolean> {
    const figures = resPk(appId, tally.campaign);
    const player = playerPk(appId, profileId);
    // Unique players first: a crash after them leaves the event uncounted, and its redelivery counts the event only.
    if (tally.unique) {
      await this.once({ pk: player, sk: `u#${tally.campaign}#${tally.step}#${tally.unique}` }, [
        this.add(figures, `s#${tally.step}`, { [`${tally.unique}_unique`]: n(1) }),
      ]);
    }
    if (tally.receipt) {
      await this.once({ pk: player, sk: `g#${tally.campaign}#${tally.receipt}` }, [this.add(figures, `m#${tally.receipt}`, { players: n(1) })]);
      await this.receive(player, { campaign: tally.campaign, group: tally.receipt, at: tally.at });
    }
    return this.once({ pk: player, sk: `x#${insertId}#${tally.campaign}`, expires: true }, [
      this.add(figures, `s#${tally.step}`, { [tally.counter]: n(1) }),
      this.add(figures, `d#${tally.day}`, { [tally.counter]: n(1) }),
    ]);
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
