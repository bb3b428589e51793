/**
 * BroadcastStore on the campaigns table (design29). A broadcast is one item
 * in the application's partition (`app#<app_id>`, `bc#<broadcast_id>`),
 * whose counts are top-level numbers (`c_sent`, `c_sup_<reason>`…: ADD works
 * only on those); while scheduled or running it is in the sparse `due` index
 * under `bc#heads` at its start time, which is how the sender finds it.
 * Recipients are `bcr#<app_id>#<broadcast_id>` / `<profile_id>`; one still
 * to send is in the index under one of a few shards (`bq#<app>#<broadcast>#<n>`,
 * so a big broadcast's index writes spread over partitions) at its due time,
 * which a take moves ahead as a lease; a settled one leaves the index.
 */
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type NativeAttributeValue,
} from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import pLimit from 'p-limit';
import pRetry, { AbortError } from 'p-retry';
import type { Broadcast, BroadcastCounts, BroadcastSchedule, BroadcastStatus, BroadcastStore, DueRecipient, Settled, SnapshotPage } from '../domain/broadcasts';

export const DUE_INDEX = 'due';
/** The due index partition of broadcasts to work on. */
export const HEADS_PART = 'bc#heads';
/** Shards of a broadcast's recipients in the due index. */
export const RECIPIENT_SHARDS = 4;
/** Recipients are swept this long after the snapshot (a broadcast's report keeps its counts). */
const RECIPIENT_TTL_SECONDS = 90 * 86_400;
/** A transaction holds at most 100 items: 99 recipients and the broadcast's counts. */
const SETTLE_CHUNK = 99;

type Item = Record<string, NativeAttributeValue>;

const headKey = (appId: string, broadcastId: string) => ({ pk: `app#${appId}`, sk: `bc#${broadcastId}` });
const recipientPk = (appId: string, broadcastId: string) => `bcr#${appId}#${broadcastId}`;
const shardOf = (appId: string, broadcastId: string, profileId: string) =>
  `bq#${appId}#${broadcastId}#${createHash('sha256').update(profileId, 'utf8').digest().readUInt8(0) % RECIPIENT_SHARDS}`;
const shards = (appId: string, broadcastId: string) => Array.from({ length: RECIPIENT_SHARDS }, (_, i) => `bq#${appId}#${broadcastId}#${i}`);
const failedCondition = (error: unknown) => error instanceof ConditionalCheckFailedException;
/** Counter attribute names: a gate reason is `[a-z_]`, so it is safe inside an attribute name (always through #names). */
const counter = (name: string) => `c_${name}`;
const SUPPRESSED = 'c_sup_';

const inIndex = (status: BroadcastStatus) => status === 'scheduled' || status === 'running';

function broadcastOf(item: Item): Broadcast {
  const suppressed: Record<string, number> = {};
  for (const [name, value] of Object.entries(item)) if (name.startsWith(SUPPRESSED)) suppressed[name.slice(SUPPRESSED.length)] = Number(value);
  const counts: BroadcastCounts = {
    entered: Number(item.c_entered ?? 0),
    held_out: Number(item.c_held_out ?? 0),
    sent: Number(item.c_sent ?? 0),
    suppressed,
    deferred: Number(item.c_deferred ?? 0),
    failed: Number(item.c_failed ?? 0),
  };
  const optional = (name: string) => (typeof item[name] === 'string' ? { [name]: item[name] as string } : {});
  return {
    app_id: item.app_id as string,
    broadcast_id: item.broadcast_id as string,
    name: item.name as string,
    template_id: item.template_id as string,
    segment_id: item.segment_id as string,
    purpose: item.purpose as Broadcast['purpose'],
    ...optional('topic'),
    schedule: JSON.parse(item.schedule as string) as BroadcastSchedule,
    holdout_percent: Number(item.holdout_percent ?? 0),
    status: item.status as BroadcastStatus,
    created_at: item.created_at as string,
    created_by: item.created_by as string,
    updated_at: item.updated_at as string,
    ...optional('start_at'),
    ...optional('started_at'),
    ...optional('finished_at'),
    snapshot: {
      done: item.snapshot_done === true,
      ...(typeof item.snapshot_cursor === 'string' ? { cursor: item.snapshot_cursor } : {}),
      ...(typeof item.snapshot_done_at === 'string' ? { done_at: item.snapshot_done_at } : {}),
    },
    counts,
  };
}

export class DynamoBroadcastStore implements BroadcastStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(broadcast: Broadcast): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...headKey(broadcast.app_id, broadcast.broadcast_id),
            app_id: broadcast.app_id,
            broadcast_id: broadcast.broadcast_id,
            name: broadcast.name,
            template_id: broadcast.template_id,
            segment_id: broadcast.segment_id,
            purpose: broadcast.purpose,
            ...(broadcast.topic !== undefined ? { topic: broadcast.topic } : {}),
            // JSON text: one attribute, read back whole.
            schedule: JSON.stringify(broadcast.schedule),
            holdout_percent: broadcast.holdout_percent,
            status: broadcast.status,
            created_at: broadcast.created_at,
            created_by: broadcast.created_by,
            updated_at: broadcast.updated_at,
            snapshot_done: false,
            ...(broadcast.start_at !== undefined && inIndex(broadcast.status)
              ? { start_at: broadcast.start_at, due_part: HEADS_PART, due_at: broadcast.start_at }
              : {}),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (failedCondition(error)) return false;
      throw error;
    }
  }

  async get(appId: string, broadcastId: string): Promise<Broadcast | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: headKey(appId, broadcastId), ConsistentRead: true }));
    return Item ? broadcastOf(Item) : undefined;
  }

  async list(appId: string, limit: number): Promise<Broadcast[]> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': `app#${appId}`, ':prefix': 'bc#' },
        Limit: limit,
      }),
    );
    return Items.map(broadcastOf).sort((a, b) => b.created_at.localeCompare(a.created_at));
  }

  async transition(broadcast: Broadcast, expected: BroadcastStatus): Promise<boolean> {
    const set = ['#status = :status', 'updated_at = :updated'];
    const remove: string[] = [];
    const values: Item = { ':status': broadcast.status, ':updated': broadcast.updated_at, ':expected': expected };
    for (const name of ['start_at', 'started_at', 'finished_at'] as const) {
      const value = broadcast[name];
      if (value === undefined) continue;
      set.push(`${name} = :${name}`);
      values[`:${name}`] = value;
    }
    if (inIndex(broadcast.status) && broadcast.start_at !== undefined) {
      set.push('due_part = :part', 'due_at = :start_at');
      values[':part'] = HEADS_PART;
    } else remove.push('due_part', 'due_at');
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: headKey(broadcast.app_id, broadcast.broadcast_id),
          UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
          ConditionExpression: '#status = :expected',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: values,
        }),
      );
      return true;
    } catch (error) {
      if (failedCondition(error)) return false;
      throw error;
    }
  }

  async active(by: Date, limit: number): Promise<{ appId: string; broadcastId: string }[]> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: DUE_INDEX,
        KeyConditionExpression: 'due_part = :part AND due_at <= :by',
        ExpressionAttributeValues: { ':part': HEADS_PART, ':by': by.toISOString() },
        ProjectionExpression: 'app_id, broadcast_id',
        Limit: limit,
      }),
    );
    return Items.map((item) => ({ appId: item.app_id as string, broadcastId: item.broadcast_id as string }));
  }

  async putRecipients(appId: string, broadcastId: string, page: SnapshotPage): Promise<void> {
    const pk = recipientPk(appId, broadcastId);
    const expiresAt = Math.floor(this.now().getTime() / 1000) + RECIPIENT_TTL_SECONDS;
    const items: Item[] = [
      ...page.recipients.map(({ profileId, dueAt }) => ({
        pk,
        sk: profileId,
        status: 'pending',
        due_part: shardOf(appId, broadcastId, profileId),
        due_at: dueAt,
        app_id: appId,
        broadcast_id: broadcastId,
        attempts: 0,
        expires_at: expiresAt,
      })),
      ...page.heldOut.map((profileId) => ({ pk, sk: profileId, status: 'held_out', expires_at: expiresAt })),
    ];
    // Conditional puts, not a batch: a page written again (a run that died before moving the cursor) never sets a
    // recipient already sent back to pending. The same write units; only the calls are more.
    const limit = pLimit(10);
    await Promise.all(
      items.map((item) =>
        limit(async () => {
          try {
            await this.db.send(new PutCommand({ TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
          } catch (error) {
            if (!failedCondition(error)) throw error;
          }
        }),
      ),
    );
  }

  async advanceSnapshot(
    appId: string,
    broadcastId: string,
    from: string | undefined,
    to: { cursor?: string; done: boolean },
    page: SnapshotPage,
    at: Date,
  ): Promise<boolean> {
    const values: Item = {
      ':entered': page.recipients.length + page.heldOut.length,
      ':held': page.heldOut.length,
      ':done': to.done,
      ':false': false,
      ...(from !== undefined ? { ':from': from } : {}),
      ...(to.cursor !== undefined ? { ':to': to.cursor } : {}),
      ...(to.done ? { ':done_at': at.toISOString() } : {}),
    };
    const set = ['snapshot_done = :done', ...(to.cursor !== undefined ? ['snapshot_cursor = :to'] : []), ...(to.done ? ['snapshot_done_at = :done_at'] : [])];
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: headKey(appId, broadcastId),
          UpdateExpression: `SET ${set.join(', ')} ADD c_entered :entered, c_held_out :held${to.cursor === undefined ? ' REMOVE snapshot_cursor' : ''}`,
          // The page is counted by the one run that moves the cursor from where it read it.
          ConditionExpression: `snapshot_done = :false AND ${from === undefined ? 'attribute_not_exists(snapshot_cursor)' : 'snapshot_cursor = :from'}`,
          ExpressionAttributeValues: values,
        }),
      );
      return true;
    } catch (error) {
      if (failedCondition(error)) return false;
      throw error;
    }
  }

  async due(appId: string, broadcastId: string, by: Date, limit: number): Promise<DueRecipient[]> {
    const perShard = Math.max(1, Math.ceil(limit / RECIPIENT_SHARDS));
    const found = await Promise.all(
      shards(appId, broadcastId).map(async (part) => {
        const { Items = [] } = await this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            IndexName: DUE_INDEX,
            KeyConditionExpression: 'due_part = :part AND due_at <= :by',
            ExpressionAttributeValues: { ':part': part, ':by': by.toISOString() },
            Limit: perShard,
          }),
        );
        return Items;
      }),
    );
    return found
      .flat()
      .sort((a, b) => String(a.due_at).localeCompare(String(b.due_at)))
      .slice(0, limit)
      .map((item) => ({ appId, broadcastId, profileId: item.sk as string, dueAt: item.due_at as string, attempts: Number(item.attempts ?? 0) }));
  }

  async take(recipient: DueRecipient, lease: string, leaseUntil: Date): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: recipientPk(recipient.appId, recipient.broadcastId), sk: recipient.profileId },
          UpdateExpression: 'SET due_at = :until, lease = :lease ADD attempts :one',
          ConditionExpression: 'due_at = :read',
          ExpressionAttributeValues: { ':until': leaseUntil.toISOString(), ':lease': lease, ':read': recipient.dueAt, ':one': 1 },
        }),
      );
      return true;
    } catch (error) {
      if (failedCondition(error)) return false;
      throw error;
    }
  }

  async settle(settled: Settled[]): Promise<number> {
    let done = 0;
    for (let start = 0; start < settled.length; start += SETTLE_CHUNK) done += await this.settleChunk(settled.slice(start, start + SETTLE_CHUNK));
    return done;
  }

  /** One transaction: the recipients end and the broadcast's counts move, or neither. A recipient another run took is dropped and the rest tried again. */
  private async settleChunk(chunk: Settled[]): Promise<number> {
    let left = chunk;
    return pRetry(
      async () => {
        if (left.length === 0) return 0;
        const { appId, broadcastId } = left[0].recipient;
        const adds = new Map<string, number>();
        for (const { outcome } of left) {
          const name = outcome.status === 'suppressed' ? `${SUPPRESSED}${outcome.reason}` : counter(outcome.status);
          adds.set(name, (adds.get(name) ?? 0) + 1);
        }
        const names = Object.fromEntries([...adds.keys()].map((name, i) => [`#c${i}`, name]));
        const values = Object.fromEntries([...adds.values()].map((n, i) => [`:c${i}`, n]));
        try {
          await this.db.send(
            new TransactWriteCommand({
              TransactItems: [
                ...left.map(({ recipient, lease, outcome }) => ({
                  Update: {
                    TableName: this.tableName,
                    Key: { pk: recipientPk(appId, broadcastId), sk: recipient.profileId },
                    UpdateExpression: 'SET #status = :status REMOVE due_part, due_at, lease',
                    ConditionExpression: 'lease = :lease',
                    ExpressionAttributeNames: { '#status': 'status' },
                    ExpressionAttributeValues: { ':status': outcome.status, ':lease': lease },
                  },
                })),
                {
                  Update: {
                    TableName: this.tableName,
                    Key: headKey(appId, broadcastId),
                    UpdateExpression: `ADD ${Object.keys(names)
                      .map((name, i) => `${name} :c${i}`)
                      .join(', ')}`,
                    ExpressionAttributeNames: names,
                    ExpressionAttributeValues: values,
                  },
                },
              ],
            }),
          );
          return left.length;
        } catch (error) {
          if (!(error instanceof TransactionCanceledException)) throw new AbortError(error as Error);
          const reasons = error.CancellationReasons ?? [];
          const lost = new Set(reasons.flatMap((reason, i) => (reason.Code === 'ConditionalCheckFailed' && i < left.length ? [i] : [])));
          // Recipients another run holds now are its to settle; a conflict with a concurrent write is tried again as is.
          left = left.filter((_, i) => !lost.has(i));
          throw error;
        }
      },
      { retries: 5, minTimeout: 50, maxTimeout: 1000 },
    );
  }

  async pending(appId: string, broadcastId: string): Promise<boolean> {
    const found = await Promise.all(
      shards(appId, broadcastId).map(async (part) => {
        const { Items = [] } = await this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            IndexName: DUE_INDEX,
            KeyConditionExpression: 'due_part = :part',
            ExpressionAttributeValues: { ':part': part },
            ProjectionExpression: 'pk',
            Limit: 1,
          }),
        );
        return Items.length > 0;
      }),
    );
    return found.some(Boolean);
  }
}
