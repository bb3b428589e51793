/**
 * Whether a secret exists, asked without reading it (issue 25, item 9): SSM's
 * DescribeParameters filtered by the exact name in AWS, the name alone from
 * the local stack's table.
 */
import { beforeEach, describe, expect, test } from '@jest/globals';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeParametersCommand, GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
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
