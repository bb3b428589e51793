/**
 * The send gate's table (resources.ts `sendGate`): the caps' counts and the
 * deferred outbox.
 *
 * Counts: one item per player and channel holding the local day and its
 * count, the ISO week and its count. A claim is one conditional update when
 * the day is the stored one (the common case); a new day or week costs a
 * second, conditioned on what the first saw, so two sends never both take
 * the last place.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import type { ChannelCaps, GateChannel, LocalMoment, SentCounts } from '../domain/send-gate';
import type { DeferredOutbox, DueMessage, GatedRequest } from '../messaging/gated';

/** Counts outlive their ISO week by a few days, then TTL sweeps them. */
const COUNT_TTL_SECONDS = 10 * 24 * 3600;
/** A deferred message nobody could send goes after a week: quiet hours never last that long. */
const DEFERRED_TTL_SECONDS = 7 * 24 * 3600;
export const DUE_INDEX = 'due';
/** Deferred messages spread over a few partitions of the index: the end of quiet hours is a burst. */
export const DUE_PARTITIONS = 4;
const MAX_ATTEMPTS = 4;

const failedCondition = (error: unknown) => error instanceof ConditionalCheckFailedException;

export class DynamoSentCounts implements SentCounts {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private key(appId: string, profileId: string, channel: GateChannel) {
    return { pk: `c#${appId}#${profileId}`, sk: channel };
  }

  async read(appId: string, profileId: string, channel: GateChannel, moment: LocalMoment) {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.key(appId, profileId, channel), ConsistentRead: true }));
    const week = Item?.week === moment.week ? Number(Item.week_count ?? 0) : 0;
    const day = Item?.day === moment.day ? Number(Item.day_count ?? 0) : 0;
    return { day, week };
  }

  async claim(appId: string, profileId: string, channel: GateChannel, moment: LocalMoment, caps: ChannelCaps | undefined): Promise<boolean> {
    if (caps?.daily === 0 || caps?.weekly === 0) return false;
    const Key = this.key(appId, profileId, channel);
    const expires = Math.floor(this.now().getTime() / 1000) + COUNT_TTL_SECONDS;
    const under = (field: string, cap: number | undefined, name: string) => (cap === undefined ? [] : [`${field} < :${name}`]);
    const capValues = { ...(caps?.daily !== undefined ? { ':dcap': caps.daily } : {}), ...(caps?.weekly !== undefined ? { ':wcap': caps.weekly } : {}) };
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      try {
        await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key,
            UpdateExpression: 'ADD day_count :one, week_count :one SET expires_at = :expires',
            ConditionExpression: [
              '#day = :day',
              '#week = :week',
              ...under('day_count', caps?.daily, 'dcap'),
              ...under('week_count', caps?.weekly, 'wcap'),
            ].join(' AND '),
            ExpressionAttributeNames: { '#day': 'day', '#week': 'week' },
            ExpressionAttributeValues: { ':one': 1, ':day': moment.day, ':week': moment.week, ':expires': expires, ...capValues },
          }),
        );
        return true;
      } catch (error) {
        if (!failedCondition(error)) throw error;
      }
      // Not today's item, or today's cap: read it to tell which.
      const { Item: old } = await this.db.send(new GetCommand({ TableName: this.tableName, Key, ConsistentRead: true }));
      const sameWeek = old?.week === moment.week;
      if (sameWeek && old?.day === moment.day) return false;
      if (sameWeek && caps?.weekly !== undefined && Number(old?.week_count ?? 0) >= caps.weekly) return false;
      try {
        if (sameWeek) {
          await this.db.send(
            new UpdateCommand({
              TableName: this.tableName,
              Key,
              UpdateExpression: 'SET #day = :day, day_count = :one, expires_at = :expires ADD week_count :one',
              ConditionExpression: ['#week = :week', '#day = :oldDay', ...under('week_count', caps?.weekly, 'wcap')].join(' AND '),
              ExpressionAttributeNames: { '#day': 'day', '#week': 'week' },
              ExpressionAttributeValues: {
                ':one': 1,
                ':day': moment.day,
                ':oldDay': old?.day ?? '',
                ':week': moment.week,
                ':expires': expires,
                ...(caps?.weekly !== undefined ? { ':wcap': caps.weekly } : {}),
              },
            }),
          );
        } else {
          await this.db.send(
            new PutCommand({
              TableName: this.tableName,
              Item: { ...Key, day: moment.day, day_count: 1, week: moment.week, week_count: 1, expires_at: expires },
              ConditionExpression: old === undefined ? 'attribute_not_exists(pk)' : '#week = :oldWeek',
              ...(old === undefined ? {} : { ExpressionAttributeNames: { '#week': 'week' }, ExpressionAttributeValues: { ':oldWeek': old.week } }),
            }),
          );
        }
        return true;
      } catch (error) {
        if (!failedCondition(error)) throw error;
        // Another send moved the item meanwhile: look again.
      }
    }
    throw new Error('the send counts kept changing: try again');
  }

  async release(appId: string, profileId: string, channel: GateChannel, moment: LocalMoment): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(appId, profileId, channel),
          UpdateExpression: 'ADD day_count :minus, week_count :minus',
          ConditionExpression: '#day = :day AND #week = :week AND day_count > :zero AND week_count > :zero',
          ExpressionAttributeNames: { '#day': 'day', '#week': 'week' },
          ExpressionAttributeValues: { ':minus': -1, ':zero': 0, ':day': moment.day, ':week': moment.week },
        }),
      );
    } catch (error) {
      // The day or week moved on: nothing of it to give back.
      if (!failedCondition(error)) throw error;
    }
  }
}

export function duePartition(messageId: string): string {
  return `due#${createHash('sha256').update(messageId).digest()[0] % DUE_PARTITIONS}`;
}

export class DynamoDeferredOutbox implements DeferredOutbox {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private key(appId: string, messageId: string) {
    return { pk: `app#${appId}`, sk: `msg#${messageId}` };
  }

  async defer(request: GatedRequest, until: Date, lease?: string): Promise<void> {
    const due = { due_part: duePartition(request.messageId), due_at: until.toISOString() };
    try {
      if (lease !== undefined) {
        await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: this.key(request.appId, request.messageId),
            UpdateExpression: 'SET due_part = :part, due_at = :due REMOVE lease',
            ConditionExpression: 'lease = :lease',
            ExpressionAttributeValues: { ':part': due.due_part, ':due': due.due_at, ':lease': lease },
          }),
        );
        return;
      }
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...this.key(request.appId, request.messageId),
            ...due,
            app_id: request.appId,
            message_id: request.messageId,
            // JSON text: a message's fields are the caller's, never attribute names of ours.
            request: JSON.stringify(request),
            expires_at: Math.floor(this.now().getTime() / 1000) + DEFERRED_TTL_SECONDS,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      // Stored already (a retry), or the lease was lost to another run, which holds the message now.
      if (!failedCondition(error)) throw error;
    }
  }

  /** Messages due by `by` in one partition of the index, oldest first. */
  async due(partition: string, by: Date, limit: number): Promise<DueMessage[]> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: DUE_INDEX,
        KeyConditionExpression: 'due_part = :part AND due_at <= :by',
        ExpressionAttributeValues: { ':part': partition, ':by': by.toISOString() },
        Limit: limit,
      }),
    );
    return Items.map((item) => ({
      appId: String(item.app_id),
      messageId: String(item.message_id),
      dueAt: String(item.due_at),
      request: JSON.parse(String(item.request)) as GatedRequest,
    }));
  }

  /** Takes the message for one run: its due time moves to `leaseUntil`, so a run that dies leaves it to the next. */
  async take(message: DueMessage, lease: string, leaseUntil: Date): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(message.appId, message.messageId),
          UpdateExpression: 'SET due_at = :until, lease = :lease',
          ConditionExpression: 'due_at = :read',
          ExpressionAttributeValues: { ':until': leaseUntil.toISOString(), ':lease': lease, ':read': message.dueAt },
        }),
      );
      return true;
    } catch (error) {
      if (failedCondition(error)) return false;
      throw error;
    }
  }

  /** The message is sent or refused: gone, if this run still holds it. */
  async done(message: DueMessage, lease: string): Promise<void> {
    try {
      await this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: this.key(message.appId, message.messageId),
          ConditionExpression: 'lease = :lease',
          ExpressionAttributeValues: { ':lease': lease },
        }),
      );
    } catch (error) {
      if (!failedCondition(error)) throw error;
    }
  }
}
