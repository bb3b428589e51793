/**
 * A data directory made by an older version keeps its tables: when the stack
 * starts, the global indexes and TTL added to a table's definition since are
 * added to the table (as a deployment adds them in AWS), so a new index such
 * as the funnel's `postbacks-due` is there to query.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, expect, test } from '@jest/globals';
import { DescribeTableCommand, DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import type { TableDefinition } from '../../functions/manifest/resources';
import { ensureTables } from '../../lib/local/bootstrap';
import { localClients } from '../../lib/local/stack';
import { testStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await testStack();
});

test('a table from before an index and TTL were defined gets both when the stack starts', async () => {
  const { dynamo } = localClients(stack.endpoints);
  const before: TableDefinition = {
    id: 'OlderTable',
    envVar: 'OLDER_TABLE',
    localName: `urm-older-${randomUUID()}`,
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
  };
  await ensureTables(dynamo, [before]);
  const now: TableDefinition = {
    ...before,
    indexes: [{ name: 'due', kind: 'global', partitionKey: { name: 'queue', type: 'S' }, sortKey: { name: 'due_at', type: 'S' } }],
    timeToLiveAttribute: 'expires_at',
  };

  await ensureTables(dynamo, [now]);
  await ensureTables(dynamo, [now]);

  const described = await dynamo.send(new DescribeTableCommand({ TableName: now.localName }));
  const ttl = await dynamo.send(new DescribeTimeToLiveCommand({ TableName: now.localName }));
  expect(described.Table?.GlobalSecondaryIndexes?.map((index) => [index.IndexName, index.KeySchema?.map((key) => key.AttributeName)])).toEqual([
    ['due', ['queue', 'due_at']],
  ]);
  expect(ttl.TimeToLiveDescription).toMatchObject({ TimeToLiveStatus: 'ENABLED', AttributeName: 'expires_at' });
});
