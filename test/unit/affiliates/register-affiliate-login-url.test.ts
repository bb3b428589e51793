/**
 * register_affiliate's `login_url` comes from the application's portal origin,
 * never from the request's `Host` or `X-Forwarded-Proto` (issue 25, item 4):
 * without a portal origin the affiliate is still registered, and `login_url`
 * is null.
 */
import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { apiEvent, context, keysByHash, type ProxyHandler, setFunctionEnv } from '../../support/lambda';
import { registration } from '../../support/affiliates';

setFunctionEnv({ KEYS_TABLE: 'keys', APPS_TABLE: 'apps', AFFILIATES_TABLE: 'affiliates' });

const dynamo = mockClient(DynamoDBDocumentClient);
const byHash = keysByHash({
  'with-portal-key': { app_id: 'app_1', scope: 'server', key_id: 'k1' },
  'no-portal-key': { app_id: 'app_2', scope: 'server', key_id: 'k2' },
});
const apps = new Map<string, object>([
  ['app_1', { app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z', portal_origin: 'https://portal.example.com' }],
  ['app_2', { app_id: 'app_2', name: 'No portal yet', created_at: '2026-01-01T00:00:00Z' }],
]);

let registerAffiliate: ProxyHandler;
beforeAll(async () => {
  registerAffiliate = (await import('../../../functions/api/register-affiliate/handler')).handler as unknown as ProxyHandler;
});

beforeEach(() => {
  dynamo.reset();
  dynamo
    .on(GetCommand)
    .callsFake((input: { TableName: string; Key: Record<string, string> }) =>
      input.TableName === 'keys' ? { Item: byHash.get(input.Key.key_hash) } : { Item: apps.get(input.Key.app_id) },
    );
  dynamo.on(TransactWriteCommand).resolves({});
});

/** A registration sent with the headers an attacker chooses, as a reverse proxy might pass them on. */
async function register(appId: string, key: string) {
  const response = await registerAffiliate(
    apiEvent({
      path: '/api/register_affiliate',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Api-Key': key, Host: 'evil.example', 'X-Forwarded-Proto': 'https' },
      body: JSON.stringify(registration(appId)),
    }),
    context(),
  );
  return { status: response.statusCode, text: response.body, body: JSON.parse(response.body) };
}

describe('login_url of register_affiliate', () => {
  test("is on the application's portal origin, whatever host the request names", async () => {
    const answer = await register('app_1', 'with-portal-key');

    expect(answer.status).toBe(200);
    expect(answer.body.login_url).toBe('https://portal.example.com/affiliates/app_1/login');
  });

  test('is null for an application without a portal origin, which still registers the affiliate', async () => {
    const answer = await register('app_2', 'no-portal-key');

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ login_url: null, affiliate_id: expect.stringMatching(/^aff_[0-9a-f]{20}$/) });
    expect(answer.text).not.toContain('evil.example');
    expect(dynamo).toHaveReceivedCommandTimes(TransactWriteCommand, 1);
  });
});
