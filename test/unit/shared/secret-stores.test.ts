/**
 * Whether a secret exists, asked without reading it (issue 25, item 9): SSM's
 * DescribeParameters filtered by the exact name in AWS, the name alone from
 * the local stack's table.
 */
import { beforeEach, describe, expect, test } from '@jest/globals';
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeParametersCommand, GetParameterCommand, ParameterAlreadyExists, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoSecretStore } from '../../../functions/adapters/dynamo-secret-store';
import { SsmSecretStore } from '../../../functions/adapters/ssm-secret-store';

describe('the SSM secret store asked whether a secret exists', () => {
  const ssm = mockClient(SSMClient);
  const store = new SsmSecretStore(new SSMClient({ region: 'eu-west-1' }), '/urm/Urm/');
  const byName = { ParameterFilters: [{ Key: 'Name', Option: 'Equals', Values: ['/urm/Urm/apps/app_1/identity-secret'] }] };
  beforeEach(() => void ssm.reset());

  test('describes the parameters of exactly its name, and never gets a value', async () => {
    ssm.on(DescribeParametersCommand).resolves({ Parameters: [{ Name: '/urm/Urm/apps/app_1/identity-secret', Type: 'SecureString' }] });

    const found = await store.exists('apps/app_1/identity-secret');

    expect(found).toBe(true);
    expect(ssm).toHaveReceivedCommandWith(DescribeParametersCommand, byName);
    expect(ssm).not.toHaveReceivedCommand(GetParameterCommand);
  });

  test('is false when no parameter has the name', async () => {
    ssm.on(DescribeParametersCommand).resolves({ Parameters: [] });

    expect(await store.exists('apps/app_1/identity-secret')).toBe(false);
  });

  test('follows a next token: DescribeParameters may answer a page without the match', async () => {
    ssm
      .on(DescribeParametersCommand)
      .resolvesOnce({ Parameters: [], NextToken: 'more' })
      .resolvesOnce({ Parameters: [{ Name: '/urm/Urm/apps/app_1/identity-secret' }] });

    expect(await store.exists('apps/app_1/identity-secret')).toBe(true);
    expect(ssm).toHaveReceivedCommandWith(DescribeParametersCommand, { ...byName, NextToken: 'more' });
  });
});

describe('the local stack’s secret table asked whether a secret exists', () => {
  const dynamo = mockClient(DynamoDBDocumentClient);
  const store = new DynamoSecretStore(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), 'urm-secrets');
  beforeEach(() => void dynamo.reset());

  test('reads the name only, never the value', async () => {
    dynamo.on(GetCommand).resolves({ Item: { name: 'apps/app_1/identity-secret' } });

    const found = await store.exists('apps/app_1/identity-secret');

    expect(found).toBe(true);
    expect(dynamo).toHaveReceivedCommandWith(GetCommand, {
      TableName: 'urm-secrets',
      Key: { name: 'apps/app_1/identity-secret' },
      ProjectionExpression: '#name',
      ExpressionAttributeNames: { '#name': 'name' },
    });
  });

  test('is false without an item', async () => {
    dynamo.on(GetCommand).resolves({});

    expect(await store.exists('apps/app_1/identity-secret')).toBe(false);
  });
});

describe('a secret created only if absent (the unsubscribe key: never replaced once links carry it)', () => {
  const ssm = mockClient(SSMClient);
  const dynamo = mockClient(DynamoDBDocumentClient);
  const ssmStore = new SsmSecretStore(new SSMClient({ region: 'eu-west-1' }), '/urm/Urm');
  const tableStore = new DynamoSecretStore(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), 'urm-secrets');
  beforeEach(() => {
    ssm.reset();
    dynamo.reset();
  });

  test('in SSM is a PutParameter without Overwrite: true when it took, false when the name exists', async () => {
    ssm
      .on(PutParameterCommand)
      .resolvesOnce({})
      .rejectsOnce(new ParameterAlreadyExists({ message: 'exists', $metadata: {} }));

    const results = [await ssmStore.create('apps/app_1/unsubscribe-key', 'k1'), await ssmStore.create('apps/app_1/unsubscribe-key', 'k2')];

    expect(results).toEqual([true, false]);
    expect(ssm).toHaveReceivedCommandWith(PutParameterCommand, { Name: '/urm/Urm/apps/app_1/unsubscribe-key', Type: 'SecureString', Overwrite: false });
  });

  test('in the local table is a put conditioned on no item: true when it took, false when one exists', async () => {
    dynamo
      .on(PutCommand)
      .resolvesOnce({})
      .rejectsOnce(new ConditionalCheckFailedException({ message: 'exists', $metadata: {} }));

    const results = [await tableStore.create('apps/app_1/unsubscribe-key', 'k1'), await tableStore.create('apps/app_1/unsubscribe-key', 'k2')];

    expect(results).toEqual([true, false]);
    expect(dynamo).toHaveReceivedCommandWith(PutCommand, {
      TableName: 'urm-secrets',
      Item: { name: 'apps/app_1/unsubscribe-key', value: 'k1' },
      ConditionExpression: 'attribute_not_exists(#name)',
    });
  });

  test('any other failure is not taken for "exists"', async () => {
    ssm.on(PutParameterCommand).rejects(new Error('throttled'));

    await expect(ssmStore.create('apps/app_1/unsubscribe-key', 'k1')).rejects.toThrow('throttled');
  });
});
