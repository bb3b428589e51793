/**
 * Creates the local tables and stream from functions/manifest/resources.ts, the definitions
 * the CDK stack deploys, when they do not exist yet.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  ListTablesCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type CreateTableCommandInput,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { CreateStreamCommand, DescribeStreamSummaryCommand, ListStreamsCommand, type KinesisClient } from '@aws-sdk/client-kinesis';
import { tables, type StreamDefinition, type TableDefinition } from '../../functions/manifest/resources';

export function createTableInput(definition: TableDefinition): CreateTableCommandInput {
  const attributes = new Map<string, 'S' | 'N' | 'B'>();
  const keys = [definition.partitionKey, definition.sortKey, ...(definition.indexes ?? []).flatMap((i) => [i.partitionKey, i.sortKey])];
  for (const key of keys) if (key) attributes.set(key.name, key.type);
  const schema = (partition: string, sort?: string) => [
    { AttributeName: partition, KeyType: 'HASH' as const },
    ...(sort ? [{ AttributeName: sort, KeyType: 'RANGE' as const }] : []),
  ];
  const globals = (definition.indexes ?? []).filter((i) => i.kind === 'global');
  const locals = (definition.indexes ?? []).filter((i) => i.kind === 'local');
  return {
    TableName: definition.localName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType })),
    KeySchema: schema(definition.partitionKey.name, definition.sortKey?.name),
    GlobalSecondaryIndexes: globals.length
      ? globals.map((i) => ({
          IndexName: i.name,
          KeySchema: schema(i.partitionKey!.name, i.sortKey.name),
          Projection: { ProjectionType: i.projection ?? 'ALL' },
        }))
      : undefined,
    LocalSecondaryIndexes: locals.length
      ? locals.map((i) => ({
          IndexName: i.name,
          KeySchema: schema(definition.partitionKey.name, i.sortKey.name),
          Projection: { ProjectionType: i.projection ?? 'ALL' },
        }))
      : undefined,
  };
}

export async function ensureTables(client: DynamoDBClient, definitions: TableDefinition[] = Object.values(tables)): Promise<void> {
  const existing = new Set<string>();
  let start: string | undefined;
  do {
    const out = await client.send(new ListTablesCommand({ ExclusiveStartTableName: start }));
    for (const name of out.TableNames ?? []) existing.add(name);
    start = out.LastEvaluatedTableName;
  } while (start);
  for (const definition of definitions) {
    if (existing.has(definition.localName)) {
      await addMissingIndexes(client, definition);
      continue;
    }
    await client.send(new CreateTableCommand(createTableInput(definition)));
    await client.send(new DescribeTableCommand({ TableName: definition.localName }));
    await enableTimeToLive(client, definition);
  }
}

/** A table made by an older version (data under .urm/ survives upgrades): global indexes and TTL added since, as a deployment would add them. */
async function addMissingIndexes(client: DynamoDBClient, definition: TableDefinition): Promise<void> {
  const described = await client.send(new DescribeTableCommand({ TableName: definition.localName }));
  const present = new Set((described.Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  const wanted = createTableInput(definition);
  const missing = (wanted.GlobalSecondaryIndexes ?? []).filter((index) => !present.has(index.IndexName));
  for (const index of missing) {
    await client.send(
      new UpdateTableCommand({
        TableName: definition.localName,
        AttributeDefinitions: wanted.AttributeDefinitions,
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
  }
  if (definition.timeToLiveAttribute) {
    const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: definition.localName }));
    if (ttl.TimeToLiveDescription?.TimeToLiveStatus !== 'ENABLED') await enableTimeToLive(client, definition);
  }
}

async function enableTimeToLive(client: DynamoDBClient, definition: TableDefinition): Promise<void> {
  if (!definition.timeToLiveAttribute) return;
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: definition.localName,
      TimeToLiveSpecification: { AttributeName: definition.timeToLiveAttribute, Enabled: true },
    }),
  );
}

export async function ensureStream(client: KinesisClient, definition: StreamDefinition): Promise<void> {
  const out = await client.send(new ListStreamsCommand({}));
  if (!out.StreamNames?.includes(definition.localName)) {
    await client.send(new CreateStreamCommand({ StreamName: definition.localName, ShardCount: definition.localShardCount }));
  }
  for (let i = 0; i < 100; i++) {
    const summary = await client.send(new DescribeStreamSummaryCommand({ StreamName: definition.localName }));
    if (summary.StreamDescriptionSummary?.StreamStatus === 'ACTIVE') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`stream ${definition.localName} did not become active`);
}
