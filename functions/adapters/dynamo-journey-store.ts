/**
 * JourneyStore on DynamoDB, in the campaigns table (design29.md's prefixes):
 * heads `app#<app>` / `jny#<journey>`; versions `jv#<app>#<journey>` /
 * `v#<version, 6 digits>` and, in the same partition, occupancy counters
 * `occ#<version>#<step>`; a player's instances `ji#<app>#<profile>` /
 * `<journey>#<entry>` and entry records `h#<journey>`. Definitions and
 * instances are JSON text (an integrator's property names are map keys the
 * marshaller may refuse). A waiting instance carries `due_part`/`due_at` for
 * the sparse `due` index; a done one drops them and expires by TTL.
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
import type { JourneyDefinition } from '../domain/journeys/definition';
import type { JourneyInstance } from '../domain/journeys/engine';
import {
  DONE_INSTANCE_DAYS,
  INSTANCES_LISTED,
  JOURNEYS_PER_APP,
  timerShardOf,
  VERSIONS_LISTED,
  type EntryRecord,
  type InstanceKey,
  type JourneyHead,
  type JourneyStore,
  type StepOccupancy,
  type StoredInstance,
  type StoredJourneyVersion,
} from '../domain/journeys/store';
import { batchGetAll } from './batch-write';

type Item = Record<string, NativeAttributeValue>;
type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

const headPk = (appId: string) => `app#${appId}`;
const HEAD = 'jny#';
const versionPk = (appId: string, journeyId: string) => `jv#${appId}#${journeyId}`;
const versionSk = (version: number) => `v#${String(version).padStart(6, '0')}`;
const occupancySk = (version: number, stepId: string) => `occ#${String(version).padStart(6, '0')}#${stepId}`;
const playerPk = (appId: string, profileId: string) => `ji#${appId}#${profileId}`;
const instanceSk = (journeyId: string, entryId: string) => `${journeyId}#${entryId}`;
const HISTORY = 'h#';
/** The player's first deposit as journeys took it (no `#`: never a journey's instance key). */
const FIRST_DEPOSIT = 'first-deposit';
const timerPart = (shard: number) => `jt#${shard}`;

function headOf(item: Item): JourneyHead {
  return {
    app_id: item.app_id,
    journey_id: item.journey_id,
    name: item.name,
    status: item.status,
    version: Number(item.version),
    revision: Number(item.revision),
    created_at: item.created_at,
    updated_at: item.updated_at,
    ...(typeof item.updated_by === 'string' ? { updated_by: item.updated_by } : {}),
  };
}

const headItem = (head: JourneyHead): Item => ({ pk: headPk(head.app_id), sk: `${HEAD}${head.journey_id}`, ...head });

function versionOf(item: Item): StoredJourneyVersion {
  return {
    app_id: item.app_id,
    journey_id: item.journey_id,
    version: Number(item.version),
    definition: JSON.parse(item.definition as string) as JourneyDefinition,
    created_at: item.created_at,
    ...(typeof item.created_by === 'string' ? { created_by: item.created_by } : {}),
  };
}

const versionItem = (version: StoredJourneyVersion): Item => ({
  pk: versionPk(version.app_id, version.journey_id),
  sk: versionSk(version.version),
  ...version,
  definition: JSON.stringify(version.definition),
});

function instanceOf(item: Item): StoredInstance {
  return {
    app_id: item.app_id,
    instance: JSON.parse(item.instance as string) as JourneyInstance,
    revision: Number(item.revision),
    updated_at: item.updated_at,
    ...(typeof item.due_at === 'string' ? { due_at: item.due_at } : {}),
  };
}

function instanceItem(stored: StoredInstance): Item {
  const { instance } = stored;
  const done = instance.done;
  return {
    pk: playerPk(stored.app_id, instance.profileId),
    sk: instanceSk(instance.journeyId, instance.entryId),
    app_id: stored.app_id,
    journey_id: instance.journeyId,
    version: instance.version,
    step_id: instance.stepId,
    revision: stored.revision,
    updated_at: stored.updated_at,
    instance: JSON.stringify(instance),
    ...(done
      ? { expires_at: Math.floor(Date.parse(done.at) / 1000) + DONE_INSTANCE_DAYS * 86_400 }
      : stored.due_at !== undefined
        ? { due_part: timerPart(timerShardOf(instance.profileId, instance.journeyId)), due_at: stored.due_at }
        : {}),
  };
}

function occupancyMove(tableName: string, appId: string, instance: JourneyInstance, stepId: string, by: 1 | -1): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: { pk: versionPk(appId, instance.journeyId), sk: occupancySk(instance.version, stepId) },
      UpdateExpression: 'SET version = :version, step_id = :step ADD players :by',
      ExpressionAttributeValues: { ':version': instance.version, ':step': stepId, ':by': by },
    },
  };
}

const conflicted = (error: unknown) =>
  error instanceof ConditionalCheckFailedException ||
  (error instanceof TransactionCanceledException && (error.CancellationReasons ?? []).some((reason) => reason.Code === 'ConditionalCheckFailed'));

export class DynamoJourneyStore implements JourneyStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private async query(
    pk: string,
    prefix: string,
    bound: number,
    options: { newestFirst?: boolean; count?: boolean } = {},
  ): Promise<{ items: Item[]; count: number }> {
    const items: Item[] = [];
    let count = 0;
    let start: Item | undefined;
    do {
      const out = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          // DynamoDB refuses begins_with on an empty string: no prefix is the whole partition.
          ...(prefix === ''
            ? { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } }
            : { KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix } }),
          ConsistentRead: true,
          ...(options.count ? { Select: 'COUNT' } : { Limit: bound - items.length }),
          ...(options.newestFirst ? { ScanIndexForward: false } : {}),
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      items.push(...(out.Items ?? []));
      count += out.Count ?? 0;
      start = out.LastEvaluatedKey;
    } while (start && (options.count || items.length < bound));
    return { items, count };
  }

  async list(appId: string, options: { archived?: boolean } = {}): Promise<JourneyHead[]> {
    const { items } = await this.query(headPk(appId), HEAD, JOURNEYS_PER_APP);
    return items
      .map(headOf)
      .filter((head) => options.archived || head.status !== 'archived')
      .sort((a, b) => b.updated_at.localeCompare(a.updated_at));
  }

  async get(appId: string, journeyId: string): Promise<JourneyHead | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: headPk(appId), sk: `${HEAD}${journeyId}` }, ConsistentRead: true }));
    return out.Item ? headOf(out.Item) : undefined;
  }

  async count(appId: string): Promise<number> {
    return (await this.query(headPk(appId), HEAD, JOURNEYS_PER_APP, { count: true })).count;
  }

  create(head: JourneyHead, version: StoredJourneyVersion): Promise<boolean> {
    return this.transact([
      { Put: { TableName: this.tableName, Item: headItem(head), ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: this.tableName, Item: versionItem(version), ConditionExpression: 'attribute_not_exists(pk)' } },
    ]);
  }

  update(head: JourneyHead, expectedRevision: number, version?: StoredJourneyVersion): Promise<boolean> {
    const put = {
      TableName: this.tableName,
      Item: headItem(head),
      ConditionExpression: 'revision = :expected',
      ExpressionAttributeValues: { ':expected': expectedRevision },
    };
    if (version === undefined) return this.conditional(() => this.db.send(new PutCommand(put)));
    return this.transact([{ Put: put }, { Put: { TableName: this.tableName, Item: versionItem(version), ConditionExpression: 'attribute_not_exists(pk)' } }]);
  }

  async version(appId: string, journeyId: string, version: number): Promise<StoredJourneyVersion | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: versionPk(appId, journeyId), sk: versionSk(version) } }));
    return out.Item ? versionOf(out.Item) : undefined;
  }

  async versions(appId: string, journeyId: string, limit = VERSIONS_LISTED): Promise<StoredJourneyVersion[]> {
    const { items } = await this.query(versionPk(appId, journeyId), 'v#', Math.min(limit, VERSIONS_LISTED), { newestFirst: true });
    return items.map(versionOf);
  }

  async occupancy(appId: string, journeyId: string): Promise<StepOccupancy[]> {
    // One counter per (version, step) ever occupied: bounded by versions × steps, small items.
    const { items } = await this.query(versionPk(appId, journeyId), 'occ#', VERSIONS_LISTED * 50);
    return items
      .map((item) => ({ version: Number(item.version), step_id: item.step_id as string, players: Number(item.players) }))
      .filter((row) => row.players > 0);
  }

  async history(appId: string, profileId: string): Promise<EntryRecord[]> {
    const { items } = await this.query(playerPk(appId, profileId), HISTORY, JOURNEYS_PER_APP);
    return items.map((item) => ({
      journey_id: item.journey_id,
      entries: Number(item.entries),
      ...(typeof item.last_entered_at === 'string' ? { last_entered_at: item.last_entered_at } : {}),
      ...(typeof item.active_entry === 'string' ? { active_entry: item.active_entry } : {}),
    }));
  }

  async instances(keys: InstanceKey[]): Promise<StoredInstance[]> {
    if (keys.length === 0) return [];
    const items = await batchGetAll(
      this.db,
      this.tableName,
      keys.map((key) => ({ pk: playerPk(key.app_id, key.profile_id), sk: instanceSk(key.journey_id, key.entry_id) })),
      { consistent: true, what: 'journey instance' },
    );
    return items.map(instanceOf);
  }

  async playerInstances(appId: string, profileId: string, limit = INSTANCES_LISTED): Promise<StoredInstance[]> {
    const { items } = await this.query(playerPk(appId, profileId), '', Math.min(limit, INSTANCES_LISTED) + JOURNEYS_PER_APP);
    return items
      .filter((item) => typeof item.instance === 'string')
      .slice(0, Math.min(limit, INSTANCES_LISTED))
      .map(instanceOf);
  }

  enter(stored: StoredInstance, seenEntries: number): Promise<boolean> {
    const { instance } = stored;
    return this.transact([
      { Put: { TableName: this.tableName, Item: instanceItem(stored), ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Update: {
          TableName: this.tableName,
          Key: { pk: playerPk(stored.app_id, instance.profileId), sk: `${HISTORY}${instance.journeyId}` },
          UpdateExpression: 'SET journey_id = :journey, entries = :entries, last_entered_at = :at, active_entry = :entry',
          ConditionExpression: '(attribute_not_exists(entries) AND :seen = :zero) OR (entries = :seen AND attribute_not_exists(active_entry))',
          ExpressionAttributeValues: {
            ':journey': instance.journeyId,
            ':entries': seenEntries + 1,
            ':seen': seenEntries,
            ':zero': 0,
            ':at': instance.enteredAt,
            ':entry': instance.entryId,
          },
        },
      },
      occupancyMove(this.tableName, stored.app_id, instance, instance.stepId, 1),
    ]);
  }

  move(next: StoredInstance, fromStep: string): Promise<boolean> {
    const { instance } = next;
    const items: TransactItem[] = [
      {
        Put: {
          TableName: this.tableName,
          Item: instanceItem(next),
          ConditionExpression: 'revision = :expected',
          ExpressionAttributeValues: { ':expected': next.revision - 1 },
        },
      },
    ];
    if (instance.done) {
      items.push(occupancyMove(this.tableName, next.app_id, instance, fromStep, -1), {
        Update: {
          TableName: this.tableName,
          Key: { pk: playerPk(next.app_id, instance.profileId), sk: `${HISTORY}${instance.journeyId}` },
          UpdateExpression: 'REMOVE active_entry',
          ConditionExpression: 'active_entry = :entry',
          ExpressionAttributeValues: { ':entry': instance.entryId },
        },
      });
    } else if (instance.stepId !== fromStep) {
      items.push(occupancyMove(this.tableName, next.app_id, instance, fromStep, -1), occupancyMove(this.tableName, next.app_id, instance, instance.stepId, 1));
    }
    return this.transact(items);
  }

  claimFirstDeposit(appId: string, profileId: string, insertId: string): Promise<boolean> {
    return this.conditional(() =>
      this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: playerPk(appId, profileId), sk: FIRST_DEPOSIT, insert_id: insertId },
          ConditionExpression: 'attribute_not_exists(pk) OR insert_id = :id',
          ExpressionAttributeValues: { ':id': insertId },
        }),
      ),
    );
  }

  async due(
    shard: number,
    until: string,
    limit: number,
    start?: Record<string, string>,
  ): Promise<{ instances: StoredInstance[]; next?: Record<string, string> }> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'due',
        KeyConditionExpression: 'due_part = :part AND due_at <= :until',
        ExpressionAttributeValues: { ':part': timerPart(shard), ':until': until },
        Limit: limit,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    return { instances: (out.Items ?? []).map(instanceOf), ...(out.LastEvaluatedKey ? { next: out.LastEvaluatedKey as Record<string, string> } : {}) };
  }

  lease(stored: StoredInstance, leaseUntil: string): Promise<boolean> {
    const { instance } = stored;
    return this.conditional(() =>
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: playerPk(stored.app_id, instance.profileId), sk: instanceSk(instance.journeyId, instance.entryId) },
          UpdateExpression: 'SET due_at = :lease',
          ConditionExpression: 'revision = :revision AND due_at = :seen',
          ExpressionAttributeValues: { ':lease': leaseUntil, ':revision': stored.revision, ':seen': stored.due_at ?? '' },
        }),
      ),
    );
  }

  private transact(items: TransactItem[]): Promise<boolean> {
    return this.conditional(() => this.db.send(new TransactWriteCommand({ TransactItems: items })));
  }

  private async conditional(write: () => Promise<unknown>): Promise<boolean> {
    try {
      await write();
      return true;
    } catch (error) {
      if (conflicted(error)) return false;
      throw error;
    }
  }
}
