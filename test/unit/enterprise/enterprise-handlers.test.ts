import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, type GetCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { hashApiKey } from '../../../functions/domain/api-keys';
import { hashSecret } from '../../../functions/domain/enterprise';
import { apiEvent, context, setFunctionEnv, type ProxyHandler } from '../../support/lambda';

setFunctionEnv({ KEYS_TABLE: 'keys', APPS_TABLE: 'apps', ENTERPRISE_USERS_TABLE: 'users', SIGN_IN_TOKENS_TABLE: 'tokens', PORTAL_SESSIONS_TABLE: 'sessions' });

type Handler = ProxyHandler;
const dynamo = mockClient(DynamoDBDocumentClient);

const serverKey = { key_hash: hashApiKey('server-key'), app_id: 'app_1', scope: 'server', key_id: 'k1' };
const app = { app_id: 'app_1', name: 'Casino <Royale>', created_at: '2026-01-01T00:00:00Z', portal_origin: 'https://portal.example.com' };
const user = {
  pk: 'user#app_1#usr_1',
  app_id: 'app_1',
  user_id: 'usr_1',
  email: 'ada@example.com',
  first_name: '<script>alert("Ada")</script>',
  last_name: "O'Brien & Sons",
  created_at: '2026-11-21T09:00:00.000Z',
  role: 'marketer',
};
const _liveSession = (sessionId: string) => ({
  session_hash: hashSecret(sessionId),
  app_id: 'app_1',
  user_id: 'usr_1',
  created_at: new Date().toISOString(),
  expires_at: new Date(Date.now() + 60_000).toISOString(),
  cookie_secure: true,
});

/** Every table the handlers read, by table name and key. */
let items: Record<string, Record<string, unknown> | undefined>;
const itemKey = (input: GetCommandInput) => `${input.TableName}:${Object.values(input.Key ?? {}).join()}`;

const handlers: Record<string, Handler> = {};
beforeAll(async () => {
  for (const name of ['api/enterprise-sign-up', 'api/enterprise-sign-in']) {
    handlers[name.split('/')[1]] = (await import(`../../../functions/${name}/handler`)).handler as unknown as Handler;
  }
});

beforeEach(() => {
  dynamo.reset();
  items = {
    [`keys:${serverKey.key_hash}`]: serverKey,
    'apps:app_1': app,
    'users:user#app_1#usr_1': user,
  };
  dynamo.on(GetCommand).callsFake((input: GetCommandInput) => ({ Item: items[itemKey(input)] }));
  dynamo.on(PutCommand).resolves({});
});

const json = (handler: string, body: unknown) =>
  handlers[handler](apiEvent({ path: '/', headers: { 'Content-Type': 'application/json', 'X-Api-Key': 'server-key' }, body: JSON.stringify(body) }), context());
const _browse = (handler: string, path: string, headers: Record<string, string> = {}, method = 'GET') =>
  handlers[handler](apiEvent({ method, path, headers: { Accept: 'text/html', ...headers } }), context());

function _assertHtmlPage(response: APIGatewayProxyResult) {
  const headers = response.headers ?? {};
  expect(headers['Content-Type']).toBe('text/html; charset=utf-8');
  expect(String(headers['Content-Security-Policy'])).toMatch(/^default-src 'none'; style-src 'unsafe-inline'; form-action 'self'/);
  expect(headers['X-Content-Type-Options']).toBe('nosniff');
  expect(headers['Referrer-Policy']).toBe('no-referrer');
  expect(headers['Cache-Control']).toBe('no-store');
  expect(response.body).toMatch(/^<!doctype html>/);
}

describe('POST /enterprises/sign_up handler', () => {
  test("writes the application's first user as admin, its email claim and the new roster in one conditional transaction", async () => {
    dynamo.on(QueryCommand).resolves({ Items: [] });
    dynamo.on(TransactWriteCommand).resolves({});

    const response = await json('enterprise-sign-up', { app_id: 'app_1', users: [{ email: 'alan@example.com', first_name: 'Alan', last_name: 'Turing' }] });

    expect(response.statusCode).toBe(200);
    const [answered] = JSON.parse(response.body).users;
    expect(answered.user_id).toMatch(/^usr_[0-9a-f]{24}$/);
    expect({ ...answered, user_id: undefined }).toEqual({
      user_id: undefined,
      email: 'alan@example.com',
      first_name: 'Alan',
      last_name: 'Turing',
      role: 'admin',
      created: true,
    });
    const [write] = dynamo.commandCalls(TransactWriteCommand).map((call) => call.args[0].input);
    expect(write.TransactItems?.map((item) => [item.Put?.TableName, item.Put?.Item?.pk, item.Put?.ConditionExpression])).toEqual([
      ['users', `user#app_1#${answered.user_id}`, 'attribute_not_exists(pk)'],
      ['users', 'email#app_1#alan@example.com', 'attribute_not_exists(pk)'],
      ['users', 'roster#app_1', 'attribute_not_exists(pk)'],
    ]);
    expect(write.TransactItems?.[0].Put?.Item?.role).toBe('admin');
  });

  test('writes a later user without a role as viewer, counting no admin into the roster', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [{ pk: 'user#app_1#usr_1' }] });
    dynamo.on(TransactWriteCommand).resolves({});

    const response = await json('enterprise-sign-up', { app_id: 'app_1', users: [{ email: 'alan@example.com', first_name: 'Alan', last_name: 'Turing' }] });

    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body).users[0].role).toBe('viewer');
    const [write] = dynamo.commandCalls(TransactWriteCommand).map((call) => call.args[0].input);
    expect(write.TransactItems?.[0].Put?.Item?.role).toBe('viewer');
    expect(write.TransactItems?.[2].Update).toMatchObject({ Key: { pk: 'roster#app_1' }, ExpressionAttributeValues: { ':added': 0 } });
  });

  test('answers the existing user when the transaction finds the email claimed', async () => {
    const claimed = new TransactionCanceledException({
      message: 'Transaction cancelled',
      $metadata: {},
      CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }],
    });
    let claimReads = 0;
    dynamo.on(GetCommand).callsFake((input: GetCommandInput) => {
      if (itemKey(input) === 'users:email#app_1#ada@example.com') return { Item: claimReads++ === 0 ? undefined : { user_id: 'usr_1' } };
      return { Item: items[itemKey(input)] };
    });
    dynamo.on(QueryCommand).resolves({ Items: [] });
    dynamo.on(TransactWriteCommand).rejects(claimed);

    const response = await json('enterprise-sign-up', { app_id: 'app_1', users: [{ email: 'ada@example.com', first_name: 'A', last_name: 'B' }] });

    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body).users).toEqual([
      { user_id: 'usr_1', email: 'ada@example.com', first_name: user.first_name, last_name: user.last_name, role: 'marketer', created: false },
    ]);
  });

  test('answers 400 naming each bad user and field, and writes nothing', async () => {
    const response = await json('enterprise-sign-up', {
      app_id: 'app_1',
      users: [
        { email: 'ok@example.com', first_name: 'A', last_name: 'B' },
        { email: 'nope', first_name: '', last_name: 'B' },
      ],
    });

    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      message: 'request body is invalid',
      errors: ['users[1].email must be a valid email address', 'users[1].first_name must be a non-blank name without control characters'],
    });
    expect(dynamo).not.toHaveReceivedCommand(TransactWriteCommand);
    expect(dynamo).not.toHaveReceivedCommand(PutCommand);
  });
});

describe('POST /enterprises/sign_in handler', () => {
  test('stores the hash of a fresh token and answers the token, the redirect address and the expiry', async () => {
    const response = await json('enterprise-sign-in', { app_id: 'app_1', user_id: 'usr_1' });

    expect(response.statusCode).toBe(200);
    expect(response.headers?.['Cache-Control']).toBe('no-store');
    const answer = JSON.parse(response.body);
    expect(answer.redirect_url).toBe(`https://portal.example.com/redirect?token=${answer.token}`);
    const [put] = dynamo.commandCalls(PutCommand).map((call) => call.args[0].input);
    expect(put.TableName).toBe('tokens');
    expect(put.Item?.token_hash).toBe(hashSecret(answer.token));
    expect(put.Item?.expires_at).toBe(answer.expires_at);
    expect(put.Item?.ttl).toBe(Math.ceil(Date.parse(answer.expires_at) / 1000));
    expect(!JSON.stringify(put).includes(answer.token)).toBeTruthy();
  });

  test('answers 404 with a message for an unknown user', async () => {
    const response = await json('enterprise-sign-in', { app_id: 'app_1', user_id: 'usr_nobody' });

    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body)).toEqual({ message: 'user not found' });
    expect(dynamo).not.toHaveReceivedCommand(PutCommand);
  });

  test('answers 409 when the application has no portal origin', async () => {
    items['apps:app_1'] = { ...app, portal_origin: undefined };

    const response = await json('enterprise-sign-in', { app_id: 'app_1', user_id: 'usr_1' });

    expect(response.statusCode).toBe(409);
    expect(JSON.parse(response.body).message).toMatch(/no portal origin/);
  });
});
