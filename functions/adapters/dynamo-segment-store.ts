/**
 * SegmentStore on DynamoDB: definitions and size shards in the application's
 * partition of the segments table, members in one partition per segment
 * (functions/domain/segments/model.ts has the layout). What a membership
 * change writes is the segment consumer's; this reads it.
 */
import { GetCommand, paginateQuery, PutCommand, QueryCommand, type DynamoDBDocumentClient, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BACKFILL_DUE_PART,
  definitionPk,
  definitionSk,
  memberPk,
  type SegmentDefinition,
  type SegmentMember,
  type SegmentStore,
} from '../domain/segments/model';
import { backfillStartsAt } from '../domain/segments/state';

const DEFINITION_PREFIX = 'seg#';

function definitionOf(item: Record<string, NativeAttributeValue>): SegmentDefinition {
  const { pk: _pk, sk: _sk, due_part: _part, due_at: _at, condition, ...rest } = item;
  // The condition is kept as JSON text: a map would turn an attribute named `constructor` into a failed write.
  return { ...(rest as Omit<SegmentDefinition, 'condition'>), condition: JSON.parse(condition as string) };
}

function itemOf(definition: SegmentDefinition): Record<string, NativeAttributeValue> {
  // A backfilling definition is in the `due` index, where the engine's timer finds it (never by reading every application).
  const due = definition.status === 'backfilling' ? { due_part: BACKFILL_DUE_PART, due_at: backfillStartsAt(definition) } : {};
  return {
    ...definition,
    ...due,
    pk: definitionPk(definition.app_id),
    sk: definitionSk(definition.segment_id),
    condition: JSON.stringify(definition.condition),
  };
}

/** A members cursor is the last profile id of the page, base64url: opaque to callers, checked on the way back. */
const cursorOf = (profileId: string) => Buffer.from(profileId, 'utf8').toString('base64url');
function profileIdOf(cursor: string): string {
  const profileId = Buffer.from(cursor, 'base64url').toString('utf8');
  if (profileId.length === 0 || cursorOf(profileId) !== cursor) throw new RangeError('cursor is not one this listing gave');
  return profileId;
}

export class DynamoSegmentStore implements SegmentStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async list(appId: string, options: { archived?: boolean } = {}): Promise<SegmentDefinition[]> {
    const found: SegmentDefinition[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': definitionPk(appId), ':prefix': DEFINITION_PREFIX },
        // Consistent: the segment consumer must see a definition made before a record it applies was received.
        ConsistentRead: true,
      },
    );
    for await (const page of pages) found.push(...(page.Items ?? []).map(definitionOf));
    return found.filter((segment) => options.archived || segment.status !== 'archived').sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  async get(appId: string, segmentId: string): Promise<SegmentDefinition | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: definitionPk(appId), sk: definitionSk(segmentId) }, ConsistentRead: true }),
    );
    return out.Item ? definitionOf(out.Item) : undefined;
  }

  async create(definition: SegmentDefinition): Promise<boolean> {
    return this.conditionalPut(itemOf(definition), 'attribute_not_exists(pk)');
  }

  async put(definition: SegmentDefinition, expectedVersion: number): Promise<boolean> {
    return this.conditionalPut(itemOf(definition), 'version = :expected', { ':expected': expectedVersion });
  }

  async members(appId: string, segmentId: string, limit: number, cursor?: string): Promise<{ members: SegmentMember[]; next?: string }> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': memberPk(appId, segmentId) },
        Limit: limit,
        ...(cursor ? { ExclusiveStartKey: { pk: memberPk(appId, segmentId), sk: profileIdOf(cursor) } } : {}),
      }),
    );
    const members = (out.Items ?? []).map((item) => ({ profile_id: item.sk as string, entered_at: item.entered_at as string }));
    const last = out.LastEvaluatedKey?.sk as string | undefined;
    return { members, ...(last ? { next: cursorOf(last) } : {}) };
  }

  async size(appId: string, segmentId: string): Promise<number> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': definitionPk(appId), ':prefix': `size#${segmentId}#` },
        ConsistentRead: true,
      }),
    );
    return (out.Items ?? []).reduce((sum, item) => sum + Number(item.n ?? 0), 0);
  }

  private async conditionalPut(item: Record<string, NativeAttributeValue>, condition: string, values?: Record<string, NativeAttributeValue>): Promise<boolean> {
    try {
      await this.db.send(new PutCommand({ TableName: this.tableName, Item: item, ConditionExpression: condition, ExpressionAttributeValues: values }));
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}
