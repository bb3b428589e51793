/**
 * The segment engine's writes on DynamoDB (functions/domain/segments/keeper.ts,
 * SegmentStateStore): players' states, member items and size shards in the
 * segments table, what is due in its sparse `due` index, and backfill progress
 * on the definitions. The figures, memberships and outbox are kept as JSON
 * text: event names and properties are an integrator's, and the document
 * marshaller refuses a map key such as `constructor`.
 */
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { MemberChange } from '../domain/segments/engine';
import type { SegmentStateStore } from '../domain/segments/keeper';
import {
  BACKFILL_DUE_PART,
  definitionPk,
  definitionSk,
  memberPk,
  SIZE_SHARDS,
  sizeSk,
  statePk,
  stateSk,
  type SegmentDefinition,
} from '../domain/segments/model';
import { dueOf, spreadOf, type PlayerState } from '../domain/segments/state';
import { batchGetAll } from './batch-write';

type Item = Record<string, NativeAttributeValue>;

function itemOf(state: PlayerState): Item {
  const { aggregates, memberships, outbox, ...rest } = state;
  return {
    ...rest,
    pk: statePk(state.app_id, state.profile_id),
    sk: stateSk,
    aggs: JSON.stringify(aggregates),
    segs: JSON.stringify(memberships),
    outbox: JSON.stringify(outbox),
    ...dueOf(state),
  };
}

function stateOf(item: Item): PlayerState {
  const { pk: _pk, sk: _sk, due_part: _part, due_at: _at, aggs, segs, outbox, ...rest } = item;
  return {
    ...(rest as Omit<PlayerState, 'aggregates' | 'memberships' | 'outbox'>),
    aggregates: JSON.parse(aggs as string),
    memberships: JSON.parse(segs as string),
    outbox: JSON.parse(outbox as string),
  };
}

export class DynamoSegmentStateStore implements SegmentStateStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async states(pks: string[]): Promise<Map<string, PlayerState>> {
    const items = await batchGetAll(
      this.db,
      this.tableName,
      pks.map((pk) => ({ pk, sk: stateSk })),
      { consistent: true, what: 'segment state' },
    );
    return new Map(items.map((item) => [item.pk as string, stateOf(item)]));
  }

  async write(state: PlayerState, expectedVersion: number, members: MemberChange[]): Promise<boolean> {
    const condition =
      expectedVersion === 0
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : { ConditionExpression: 'version = :expected', ExpressionAttributeValues: { ':expected': expectedVersion } };
    const put = { TableName: this.tableName, Item: itemOf(state), ...condition };
    try {
      if (members.length === 0) {
        await this.db.send(new PutCommand(put));
        return true;
      }
      const shard = spreadOf(state.profile_id, SIZE_SHARDS);
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: put },
            ...members.flatMap((change) => [
              change.member
                ? { Put: { TableName: this.tableName, Item: { pk: memberPk(state.app_id, change.segment_id), sk: state.profile_id, entered_at: change.at } } }
                : { Delete: { TableName: this.tableName, Key: { pk: memberPk(state.app_id, change.segment_id), sk: state.profile_id } } },
              {
                Update: {
                  TableName: this.tableName,
                  Key: { pk: definitionPk(state.app_id), sk: sizeSk(change.segment_id, shard) },
                  UpdateExpression: 'ADD n :delta',
                  ExpressionAttributeValues: { ':delta': change.member ? 1 : -1 },
                },
              },
            ]),
          ],
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      if (error instanceof TransactionCanceledException && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return false;
      throw error;
    }
  }

  async clearOutbox(state: PlayerState): Promise<boolean> {
    const cleared: PlayerState = { ...state, outbox: [], version: state.version + 1 };
    const due = dueOf(cleared);
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: statePk(state.app_id, state.profile_id), sk: stateSk },
          UpdateExpression: `SET outbox = :empty, version = :next${due ? ', due_part = :part, due_at = :at' : ''}${due ? '' : ' REMOVE due_part, due_at'}`,
          ConditionExpression: 'version = :expected',
          ExpressionAttributeValues: {
            ':empty': '[]',
            ':next': cleared.version,
            ':expected': state.version,
            ...(due ? { ':part': due.due_part, ':at': due.due_at } : {}),
          },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async due(part: number, until: string, limit: number, start?: Record<string, string>): Promise<{ pks: string[]; next?: Record<string, string> }> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'due',
        KeyConditionExpression: 'due_part = :part AND due_at <= :until',
        ExpressionAttributeValues: { ':part': `due#${part}`, ':until': until },
        Limit: limit,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    return {
      pks: (out.Items ?? []).map((item) => item.pk as string),
      ...(out.LastEvaluatedKey ? { next: out.LastEvaluatedKey as Record<string, string> } : {}),
    };
  }

  async backfillsDue(until: string, limit: number): Promise<{ app_id: string; segment_id: string }[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'due',
        KeyConditionExpression: 'due_part = :part AND due_at <= :until',
        ExpressionAttributeValues: { ':part': BACKFILL_DUE_PART, ':until': until },
        Limit: limit,
      }),
    );
    const prefix = definitionPk('');
    const segment = definitionSk('');
    return (out.Items ?? []).map((item) => ({ app_id: (item.pk as string).slice(prefix.length), segment_id: (item.sk as string).slice(segment.length) }));
  }

  async saveBackfill(definition: SegmentDefinition): Promise<boolean> {
    const ready = definition.status === 'ready';
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: definitionPk(definition.app_id), sk: definitionSk(definition.segment_id) },
          UpdateExpression: `SET #status = :status, backfill = :backfill${ready ? ' REMOVE due_part, due_at' : ''}`,
          ConditionExpression: 'version = :version AND #status = :backfilling',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':status': definition.status,
            ':backfill': definition.backfill ?? { started_at: definition.updated_at, done: 0 },
            ':version': definition.version,
            ':backfilling': 'backfilling',
          },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}
