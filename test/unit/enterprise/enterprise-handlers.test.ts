import assert from 'node:assert/strict';
import { before, beforeEach, describe, test } from 'node:test';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
  type GetCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { hashApiKey } from '../../../functions/shared/domain/api-keys';
import { hashSecret, newSecret } from '../../../functions/shared/domain/enterprise';
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
};
const liveSession = (sessionId: string) => ({
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
before(async () => {
  for (const name of ['enterprise-sign-up', 'enterprise-sign-in', 'enterprise-redirect', 'portal-home', 'portal-sign-out']) {
    handlers[name] = (await import(`../../../functions/${name}/handler`)).handler as unknown as Handler;
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
  handlers[handler](
    apiEvent({ path: '/', headers: { 'Content-Type': 'application/json', 'X-Api-Key': 'server-key' }, body: JSON.stringify(body) }),
    context(),
  );
const browse = (handler: string, path: string, headers: Record<string, string> = {}, method = 'GET') =>
  handlers[handler](apiEvent({ method, path, headers: { Accept: 'text/html', ...headers } }), context());

function assertHtmlPage(response: APIGatewayProxyResult) {
  const headers = response.headers ?? {};
  assert.equal(headers['Content-Type'], 'text/html; charset=utf-8');
  assert.match(String(headers['Content-Security-Policy']), /^default-src 'none'; style-src 'unsafe-inline'; form-action 'self'/);
  assert.equal(headers['X-Content-Type-Options'], 'nosniff');
  assert.equal(headers['Referrer-Policy'], 'no-referrer');
  assert.equal(headers['Cache-Control'], 'no-store');
  assert.match(response.body, /^<!doctype html>/);
}

describe('POST /enterprises/sign_up handler', () => {
  test('writes a new user and the claim on its email in one conditional transaction', async () => {
    dynamo.on(TransactWriteCommand).resolves({});

    const response = await json('enterprise-sign-up', { app_id: 'app_1', users: [{ email: 'alan@example.com', first_name: 'Alan', last_name: 'Turing' }] });

    assert.equal(response.statusCode, 200);
    const [answered] = JSON.parse(response.body).users;
    assert.match(answered.user_id, /^usr_[0-9a-f]{24}$/);
    assert.deepEqual({ ...answered, user_id: undefined }, { user_id: undefined, email: 'alan@example.com', first_name: 'Alan', last_name: 'Turing', created: true });
    const [write] = dynamo.commandCalls(TransactWriteCommand).map((call) => call.args[0].input);
    assert.deepEqual(
      write.TransactItems?.map((item) => [item.Put?.TableName, item.Put?.Item?.pk, item.Put?.ConditionExpression]),
      [
        ['users', `user#app_1#${answered.user_id}`, 'attribute_not_exists(pk)'],
        ['users', 'email#app_1#alan@example.com', 'attribute_not_exists(pk)'],
      ],
    );
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
    dynamo.on(TransactWriteCommand).rejects(claimed);

    const response = await json('enterprise-sign-up', { app_id: 'app_1', users: [{ email: 'ada@example.com', first_name: 'A', last_name: 'B' }] });

    assert.equal(response.statusCode, 200);
    assert.deepEqual(JSON.parse(response.body).users, [
      { user_id: 'usr_1', email: 'ada@example.com', first_name: user.first_name, last_name: user.last_name, created: false },
    ]);
  });

  test('answers 400 naming each bad user and field, and writes nothing', async () => {
    const response = await json('enterprise-sign-up', {
      app_id: 'app_1',
      users: [{ email: 'ok@example.com', first_name: 'A', last_name: 'B' }, { email: 'nope', first_name: '', last_name: 'B' }],
    });

    assert.equal(response.statusCode, 400);
    assert.deepEqual(JSON.parse(response.body), {
      message: 'request body is invalid',
      errors: ['users[1].email must be a valid email address', 'users[1].first_name must be a non-blank name without control characters'],
    });
    assert.equal(dynamo.commandCalls(TransactWriteCommand).length, 0);
    assert.equal(dynamo.commandCalls(PutCommand).length, 0);
  });
});

describe('POST /enterprises/sign_in handler', () => {
  test('stores the hash of a fresh token and answers the token, the redirect address and the expiry', async () => {
    const response = await json('enterprise-sign-in', { app_id: 'app_1', user_id: 'usr_1' });

    assert.equal(response.statusCode, 200);
    assert.equal(response.headers?.['Cache-Control'], 'no-store');
    const answer = JSON.parse(response.body);
    assert.equal(answer.redirect_url, `https://portal.example.com/redirect?token=${answer.token}`);
    const [put] = dynamo.commandCalls(PutCommand).map((call) => call.args[0].input);
    assert.equal(put.TableName, 'tokens');
    assert.equal(put.Item?.token_hash, hashSecret(answer.token));
    assert.equal(put.Item?.expires_at, answer.expires_at);
    assert.equal(put.Item?.ttl, Math.ceil(Date.parse(answer.expires_at) / 1000));
    assert.ok(!JSON.stringify(put).includes(answer.token));
  });

  test('answers 404 with a message for an unknown user', async () => {
    const response = await json('enterprise-sign-in', { app_id: 'app_1', user_id: 'usr_nobody' });

    assert.equal(response.statusCode, 404);
    assert.deepEqual(JSON.parse(response.body), { message: 'user not found' });
    assert.equal(dynamo.commandCalls(PutCommand).length, 0);
  });

  test('answers 409 when the application has no portal origin', async () => {
    items['apps:app_1'] = { ...app, portal_origin: undefined };

    const response = await json('enterprise-sign-in', { app_id: 'app_1', user_id: 'usr_1' });

    assert.equal(response.statusCode, 409);
    assert.match(JSON.parse(response.body).message, /no portal origin/);
  });
});

describe('GET /redirect handler', () => {
  test('consumes the token, stores the session by hash and redirects to the portal with the session cookie', async () => {
    const token = newSecret();
    dynamo.on(UpdateCommand).resolves({
      Attributes: { token_hash: hashSecret(token), app_id: 'app_1', user_id: 'usr_1', created_at: '', expires_at: '', used_at: '', ttl: 1 },
    });

    const response = await browse('enterprise-redirect', `/redirect?token=${token}`);

    assert.equal(response.statusCode, 303);
    assertHtmlPage(response);
    assert.equal(response.headers?.Location, 'portal');
    const cookie = String(response.headers?.['Set-Cookie']);
    const [, sessionId] = /^urm_portal_session=([A-Za-z0-9_-]{43}); Path=\/; Max-Age=28800; HttpOnly; SameSite=Lax; Secure$/.exec(cookie) ?? [];
    assert.ok(sessionId, cookie);
    const [update] = dynamo.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    assert.deepEqual(update.Key, { token_hash: hashSecret(token) });
    assert.equal(update.ConditionExpression, 'attribute_exists(token_hash) AND attribute_not_exists(used_at) AND expires_at > :now');
    const [put] = dynamo.commandCalls(PutCommand).map((call) => call.args[0].input);
    assert.equal(put.TableName, 'sessions');
    assert.equal(put.Item?.session_hash, hashSecret(sessionId));
    assert.ok(!JSON.stringify(put).includes(sessionId));
  });

  for (const [reason, item, heading] of [
    ['used', { token_hash: { S: 'h' }, used_at: { S: '2026-11-21T10:00:00.000Z' } }, 'This sign-in link has already been used'],
    ['expired', { token_hash: { S: 'h' } }, 'This sign-in link has expired'],
    ['unknown', undefined, 'This sign-in link is not valid'],
  ] as const) {
    test(`answers 401 with a page saying why for a token that is ${reason}, and starts no session`, async () => {
      dynamo.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {}, Item: item }));

      const response = await browse('enterprise-redirect', `/redirect?token=${newSecret()}`);

      assert.equal(response.statusCode, 401);
      assertHtmlPage(response);
      assert.match(response.body, new RegExp(`<h1>${heading}</h1>`));
      assert.equal(response.headers?.['Set-Cookie'], undefined);
      assert.equal(dynamo.commandCalls(PutCommand).length, 0);
    });
  }

  test('answers 401 without a token at all', async () => {
    const response = await browse('enterprise-redirect', '/redirect');

    assert.equal(response.statusCode, 401);
    assert.match(response.body, /This sign-in link is not valid/);
    assert.equal(dynamo.commandCalls(UpdateCommand).length, 0);
  });

  test('answers a 500 page that tells nothing of the failure', async () => {
    dynamo.on(UpdateCommand).rejects(new Error('connect ECONNREFUSED 10.0.0.7:8000 table urm-sign-in-tokens'));

    const response = await browse('enterprise-redirect', `/redirect?token=${newSecret()}`);

    assert.equal(response.statusCode, 500);
    assertHtmlPage(response);
    assert.match(response.body, /Something went wrong/);
    assert.doesNotMatch(response.body, /ECONNREFUSED|urm-sign-in-tokens|Error/);
  });
});

describe('GET /portal handler', () => {
  test("greets the session's user with every piece of user data escaped", async () => {
    const sessionId = newSecret();
    items[`sessions:${hashSecret(sessionId)}`] = liveSession(sessionId);

    const response = await browse('portal-home', '/portal', { Cookie: `theme=dark; urm_portal_session=${sessionId}` });

    assert.equal(response.statusCode, 200);
    assertHtmlPage(response);
    assert.match(response.body, /<strong id="user-name">&lt;script&gt;alert\(&quot;Ada&quot;\)&lt;\/script&gt; O&#39;Brien &amp; Sons<\/strong>/);
    assert.match(response.body, /<h1>Casino &lt;Royale&gt; portal<\/h1>/);
    assert.doesNotMatch(response.body, /<script/);
    assert.match(response.body, /<form method="post" action="portal\/sign_out">/);
  });

  test('answers 401 and a page saying so without a live session', async () => {
    const sessionId = newSecret();
    items[`sessions:${hashSecret(sessionId)}`] = { ...liveSession(sessionId), expires_at: new Date(Date.now() - 1).toISOString() };

    for (const cookie of [undefined, `urm_portal_session=${sessionId}`, `urm_portal_session=${newSecret()}`]) {
      const response = await browse('portal-home', '/portal', cookie ? { Cookie: cookie } : {});

      assert.equal(response.statusCode, 401);
      assertHtmlPage(response);
      assert.match(response.body, /You are not signed in/);
    }
  });
});

describe('POST /portal/sign_out handler', () => {
  test('deletes the session and clears the cookie with the attributes it was set with', async () => {
    const sessionId = newSecret();
    dynamo.on(DeleteCommand).resolves({ Attributes: liveSession(sessionId) });

    const response = await browse('portal-sign-out', '/portal/sign_out', { Cookie: `urm_portal_session=${sessionId}` }, 'POST');

    assert.equal(response.statusCode, 200);
    assertHtmlPage(response);
    assert.match(response.body, /You have signed out/);
    assert.equal(response.headers?.['Set-Cookie'], 'urm_portal_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure');
    assert.deepEqual(dynamo.commandCalls(DeleteCommand).map((call) => call.args[0].input.Key), [{ session_hash: hashSecret(sessionId) }]);
  });
});
