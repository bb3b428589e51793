import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand, type GetCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { consoleCsrfToken, hashSecret, newSecret } from '../../../functions/domain/enterprise';
import { apiEvent, context, setFunctionEnv, type ProxyHandler } from '../../support/lambda';

setFunctionEnv({ APPS_TABLE: 'apps', ENTERPRISE_USERS_TABLE: 'users', PORTAL_SESSIONS_TABLE: 'sessions', AUDIT_LOG_TABLE: 'audit' });

const dynamo = mockClient(DynamoDBDocumentClient);
const sessionId = newSecret();
const person = (userId: string, role: string) => ({
  pk: `user#app_1#${userId}`,
  app_id: 'app_1',
  user_id: userId,
  email: `${userId}@example.com`,
  first_name: 'F',
  last_name: 'L',
  created_at: '2026-11-21T09:00:00.000Z',
  role,
});
let items: Record<string, Record<string, unknown>>;
const itemKey = (input: GetCommandInput) => `${input.TableName}:${Object.values(input.Key ?? {}).join()}`;

let changeRole: ProxyHandler;
beforeAll(async () => {
  changeRole = (await import('../../../functions/console/console-change-role/handler')).handler as unknown as ProxyHandler;
});

beforeEach(() => {
  dynamo.reset();
  const now = new Date().toISOString();
  items = {
    [`sessions:${hashSecret(sessionId)}`]: {
      session_hash: hashSecret(sessionId),
      app_id: 'app_1',
      user_id: 'usr_admin',
      created_at: now,
      last_seen: now,
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      cookie_secure: true,
    },
    'users:user#app_1#usr_admin': person('usr_admin', 'admin'),
    'users:user#app_1#usr_2': person('usr_2', 'viewer'),
  };
  dynamo.on(GetCommand).callsFake((input: GetCommandInput) => ({ Item: items[itemKey(input)] }));
});

/** What the local server and API Gateway give the handler: the path parameter. */
function withUser<T extends { pathParameters: unknown }>(event: T, userId: string): T {
  return { ...event, pathParameters: { user_id: userId } };
}

describe('POST /console/api/users/{user_id}/role handler', () => {
  const call = (userId: string, role: string, csrf?: string) => {
    const event = apiEvent({
      path: `/console/api/users/${userId}/role`,
      headers: { 'Content-Type': 'application/json', Cookie: `urm_portal_session=${sessionId}`, 'X-CSRF-Token': csrf ?? consoleCsrfToken(sessionId) },
      body: JSON.stringify({ role }),
    });
    return changeRole(withUser(event, userId), context());
  };

  test('changes the role in one transaction conditioned on the role read, and appends an audit entry', async () => {
    dynamo.on(TransactWriteCommand).resolves({});
    dynamo.on(PutCommand).resolves({});

    const response = await call('usr_2', 'marketer');

    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body).user).toMatchObject({ user_id: 'usr_2', role: 'marketer' });
    const [write] = dynamo.commandCalls(TransactWriteCommand).map((c) => c.args[0].input);
    expect(write.TransactItems?.[0].Update).toMatchObject({
      TableName: 'users',
      Key: { pk: 'user#app_1#usr_2' },
      ExpressionAttributeValues: { ':from': 'viewer', ':to': 'marketer' },
    });
    const [entry] = dynamo.commandCalls(PutCommand).map((c) => c.args[0].input);
    expect(entry.TableName).toBe('audit');
    expect(entry.Item).toMatchObject({ app_id: 'app_1', action: 'user.role_changed', target: 'user:usr_2', actor: { user_id: 'usr_admin' } });
    expect(entry.ConditionExpression).toBe('attribute_not_exists(sk)');
  });

  test('answers 409 when the demotion would leave no admin, and writes no audit entry', async () => {
    dynamo
      .on(TransactWriteCommand)
      .rejects(
        new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }] }),
      );

    const response = await call('usr_admin', 'viewer');

    expect(response.statusCode).toBe(409);
    expect(JSON.parse(response.body)).toEqual({ message: 'the application must keep at least one admin' });
    const [write] = dynamo.commandCalls(TransactWriteCommand).map((c) => c.args[0].input);
    expect(write.TransactItems?.[1].Update).toMatchObject({ Key: { pk: 'roster#app_1' }, ConditionExpression: 'admins > :one' });
    expect(dynamo.commandCalls(PutCommand)).toHaveLength(0);
  });

  test('answers 403 for a viewer and sends no write', async () => {
    items['users:user#app_1#usr_admin'] = person('usr_admin', 'viewer');

    const response = await call('usr_2', 'admin');

    expect(response.statusCode).toBe(403);
    expect(dynamo.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  test('answers 403 without the CSRF token before reading the body', async () => {
    const response = await call('usr_2', 'admin', 'not-the-token');

    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body)).toEqual({ message: 'CSRF token missing or invalid' });
    expect(dynamo.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
