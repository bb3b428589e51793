import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand, type GetCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { hashSecret, newSecret } from '../../../functions/domain/enterprise';
import { apiEvent, context, setFunctionEnv, type ProxyHandler } from '../../support/lambda';

setFunctionEnv({ KEYS_TABLE: 'keys', APPS_TABLE: 'apps', ENTERPRISE_USERS_TABLE: 'users', SIGN_IN_TOKENS_TABLE: 'tokens', PORTAL_SESSIONS_TABLE: 'sessions' });

type Handler = ProxyHandler;
const dynamo = mockClient(DynamoDBDocumentClient);

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
beforeAll(async () => {
  for (const name of ['enterprise-portal/enterprise-redirect', 'enterprise-portal/portal-home', 'enterprise-portal/portal-sign-out']) {
    handlers[name.split('/')[1]] = (await import(`../../../functions/${name}/handler`)).handler as unknown as Handler;
  }
});

beforeEach(() => {
  dynamo.reset();
  items = {
    'apps:app_1': app,
    'users:user#app_1#usr_1': user,
  };
  dynamo.on(GetCommand).callsFake((input: GetCommandInput) => ({ Item: items[itemKey(input)] }));
  dynamo.on(PutCommand).resolves({});
});

const browse = (handler: string, path: string, headers: Record<string, string> = {}, method = 'GET') =>
  handlers[handler](apiEvent({ method, path, headers: { Accept: 'text/html', ...headers } }), context());

function assertHtmlPage(response: APIGatewayProxyResult) {
  const headers = response.headers ?? {};
  expect(headers['Content-Type']).toBe('text/html; charset=utf-8');
  expect(String(headers['Content-Security-Policy'])).toMatch(/^default-src 'none'; style-src 'unsafe-inline'; form-action 'self'/);
  expect(headers['X-Content-Type-Options']).toBe('nosniff');
  expect(headers['Referrer-Policy']).toBe('no-referrer');
  expect(headers['Cache-Control']).toBe('no-store');
  expect(response.body).toMatch(/^<!doctype html>/);
}

describe('GET /redirect handler', () => {
  test('consumes the token, stores the session by hash and redirects to the console with the session cookie', async () => {
    const token = newSecret();
    dynamo.on(UpdateCommand).resolves({
      Attributes: { token_hash: hashSecret(token), app_id: 'app_1', user_id: 'usr_1', created_at: '', expires_at: '', used_at: '', ttl: 1 },
    });

    const response = await browse('enterprise-redirect', `/redirect?token=${token}`);

    expect(response.statusCode).toBe(303);
    assertHtmlPage(response);
    expect(response.headers?.Location).toBe('console/');
    const cookie = String(response.headers?.['Set-Cookie']);
    const [, sessionId] = /^urm_portal_session=([A-Za-z0-9_-]{43}); Path=\/; Max-Age=43200; HttpOnly; SameSite=Lax; Secure$/.exec(cookie) ?? [];
    expect(sessionId).toBeTruthy();
    const [update] = dynamo.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    expect(update.Key).toEqual({ token_hash: hashSecret(token) });
    expect(update.ConditionExpression).toBe('attribute_exists(token_hash) AND attribute_not_exists(used_at) AND expires_at > :now');
    const [put] = dynamo.commandCalls(PutCommand).map((call) => call.args[0].input);
    expect(put.TableName).toBe('sessions');
    expect(put.Item?.session_hash).toBe(hashSecret(sessionId));
    expect(!JSON.stringify(put).includes(sessionId)).toBeTruthy();
  });

  for (const [reason, item, heading] of [
    ['used', { token_hash: { S: 'h' }, used_at: { S: '2026-11-21T10:00:00.000Z' } }, 'This sign-in link has already been used'],
    ['expired', { token_hash: { S: 'h' } }, 'This sign-in link has expired'],
    ['unknown', undefined, 'This sign-in link is not valid'],
  ] as const) {
    test(`answers 401 with a page saying why for a token that is ${reason}, and starts no session`, async () => {
      dynamo.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {}, Item: item }));

      const response = await browse('enterprise-redirect', `/redirect?token=${newSecret()}`);

      expect(response.statusCode).toBe(401);
      assertHtmlPage(response);
      expect(response.body).toMatch(new RegExp(`<h1>${heading}</h1>`));
      expect(response.headers?.['Set-Cookie']).toBe(undefined);
      expect(dynamo).not.toHaveReceivedCommand(PutCommand);
    });
  }

  test('answers 401 without a token at all', async () => {
    const response = await browse('enterprise-redirect', '/redirect');

    expect(response.statusCode).toBe(401);
    expect(response.body).toMatch(/This sign-in link is not valid/);
    expect(dynamo).not.toHaveReceivedCommand(UpdateCommand);
  });

  test('answers a 500 page that tells nothing of the failure', async () => {
    dynamo.on(UpdateCommand).rejects(new Error('connect ECONNREFUSED 10.0.0.7:8000 table urm-sign-in-tokens'));

    const response = await browse('enterprise-redirect', `/redirect?token=${newSecret()}`);

    expect(response.statusCode).toBe(500);
    assertHtmlPage(response);
    expect(response.body).toMatch(/Something went wrong/);
    expect(response.body).not.toMatch(/ECONNREFUSED|urm-sign-in-tokens|Error/);
  });
});

describe('GET /portal handler', () => {
  test("greets the session's user with every piece of user data escaped", async () => {
    const sessionId = newSecret();
    items[`sessions:${hashSecret(sessionId)}`] = liveSession(sessionId);

    const response = await browse('portal-home', '/portal', { Cookie: `theme=dark; urm_portal_session=${sessionId}` });

    expect(response.statusCode).toBe(200);
    assertHtmlPage(response);
    expect(response.body).toMatch(/<strong id="user-name">&lt;script&gt;alert\(&quot;Ada&quot;\)&lt;\/script&gt; O&#39;Brien &amp; Sons<\/strong>/);
    expect(response.body).toMatch(/<h1>Casino &lt;Royale&gt; portal<\/h1>/);
    expect(response.body).not.toMatch(/<script/);
    expect(response.body).toMatch(/<form method="post" action="portal\/sign_out">/);
  });

  test('answers 401 and a page saying so without a live session', async () => {
    const sessionId = newSecret();
    items[`sessions:${hashSecret(sessionId)}`] = { ...liveSession(sessionId), expires_at: new Date(Date.now() - 1).toISOString() };

    for (const cookie of [undefined, `urm_portal_session=${sessionId}`, `urm_portal_session=${newSecret()}`]) {
      const response = await browse('portal-home', '/portal', cookie ? { Cookie: cookie } : {});

      expect(response.statusCode).toBe(401);
      assertHtmlPage(response);
      expect(response.body).toMatch(/You are not signed in/);
    }
  });
});

describe('POST /portal/sign_out handler', () => {
  test('deletes the session and clears the cookie with the attributes it was set with', async () => {
    const sessionId = newSecret();
    dynamo.on(DeleteCommand).resolves({ Attributes: liveSession(sessionId) });

    const response = await browse('portal-sign-out', '/portal/sign_out', { Cookie: `urm_portal_session=${sessionId}` }, 'POST');

    expect(response.statusCode).toBe(200);
    assertHtmlPage(response);
    expect(response.body).toMatch(/You have signed out/);
    expect(response.headers?.['Set-Cookie']).toBe('urm_portal_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure');
    expect(dynamo.commandCalls(DeleteCommand).map((call) => call.args[0].input.Key)).toEqual([{ session_hash: hashSecret(sessionId) }]);
  });
});
