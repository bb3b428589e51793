import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { apiEvent, context, keysByHash, type ProxyHandler, setFunctionEnv } from '../../support/lambda';

setFunctionEnv({ KEYS_TABLE: 'keys', APPS_TABLE: 'apps', AFFILIATES_TABLE: 'affiliates', FUNNEL_TABLE: 'funnel', LINKS_TABLE: 'links' });

const dynamo = mockClient(DynamoDBDocumentClient);
const byHash = keysByHash({
  'server-key': { app_id: 'app_1', scope: 'server', key_id: 'k1' },
  'comms-key': { app_id: 'app_1', scope: 'comms', key_id: 'k2' },
});
const affiliate = (appId: string, affiliateId: string, extra: object = {}) => ({
  app_id: appId,
  sk: `affiliate#${affiliateId}`,
  affiliate_id: affiliateId,
  email: `${affiliateId}@example.com`,
  username: affiliateId,
  first_name: 'Ada',
  last_name: 'Lovelace',
  password_hash: 'scrypt$secret',
  telegram: 'ada_tg',
  created_at: '2026-01-01T00:00:00.000Z',
  ...extra,
});
const items = new Map<string, Record<string, unknown>>([
  ['app_1#affiliate#aff_1', affiliate('app_1', 'aff_1', { status: 'suspended', plan_id: 'plan_1' })],
  ['app_2#affiliate#aff_2', affiliate('app_2', 'aff_2')],
]);

let listAffiliates: ProxyHandler;
let report: ProxyHandler;
beforeAll(async () => {
  listAffiliates = (await import('../../../functions/api/list-affiliates/handler')).handler as unknown as ProxyHandler;
  report = (await import('../../../functions/api/get-affiliate-report/handler')).handler as unknown as ProxyHandler;
});

beforeEach(() => {
  dynamo.reset();
  dynamo.on(GetCommand).callsFake((input: { TableName: string; Key: Record<string, string> }) => {
    if (input.TableName === 'keys') return { Item: byHash.get(input.Key.key_hash) };
    if (input.TableName === 'apps')
      return { Item: input.Key.app_id === 'app_1' ? { app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z' } : undefined };
    return { Item: items.get(`${input.Key.app_id}#${input.Key.sk}`) };
  });
  dynamo.on(QueryCommand).callsFake((input: QueryCommandInput) => ({
    // The funnel holds nothing here (no player was attributed), and the affiliate has no links.
    Items:
      input.TableName === 'funnel' || input.TableName === 'links'
        ? []
        : [...items.values()].filter((item) => item.app_id === input.ExpressionAttributeValues![':app']),
  }));
});

const get = (handler: ProxyHandler, path: string, key: string | null = 'server-key', pathParameters: Record<string, string> | null = null) => {
  const event = apiEvent({ method: 'GET', path, headers: { Accept: 'application/json', ...(key ? { 'X-Api-Key': key } : {}) } });
  event.pathParameters = pathParameters;
  return handler(event, context());
};
const answer = (response: APIGatewayProxyResult) => ({ status: response.statusCode, body: JSON.parse(response.body) });
const reportOf = (affiliateId: string, query: string, key: string | null = 'server-key') =>
  get(report, `/api/affiliates/${affiliateId}/report${query}`, key, { affiliate_id: affiliateId });

describe('GET /api/affiliates handler', () => {
  test("answers the key's application's affiliates with status and plan, and nothing else of them", async () => {
    const response = answer(await get(listAffiliates, '/api/affiliates?limit=10'));

    expect(response).toEqual({
      status: 200,
      body: {
        affiliates: [
          {
            affiliate_id: 'aff_1',
            username: 'aff_1',
            email: 'aff_1@example.com',
            first_name: 'Ada',
            last_name: 'Lovelace',
            status: 'suspended',
            plan_id: 'plan_1',
            created_at: '2026-01-01T00:00:00.000Z',
          },
        ],
        next_cursor: null,
      },
    });
    const query = dynamo.commandCalls(QueryCommand)[0].args[0].input;
    expect([query.TableName, query.ExpressionAttributeValues, query.Limit]).toEqual(['affiliates', { ':app': 'app_1', ':prefix': 'affiliate#' }, 11]);
  });

  test.each([
    ['without a key', null],
    ['with an unknown key', 'wrong-key'],
    ['with a comms key', 'comms-key'],
  ])('answers 403 %s', async (_, key) => {
    expect(answer(await get(listAffiliates, '/api/affiliates', key))).toEqual({ status: 403, body: { message: 'Forbidden' } });
    expect(dynamo.commandCalls(QueryCommand).length).toBe(0);
  });

  test("answers 403 for another application's app_id", async () => {
    expect(answer(await get(listAffiliates, '/api/affiliates?app_id=app_2')).status).toBe(403);
  });

  test.each([['limit=0'], ['limit=101'], ['limit=ten'], ['cursor=bm9wZQ'], ['page=2']])('answers 400 for %s', async (query) => {
    const response = answer(await get(listAffiliates, `/api/affiliates?${query}`));

    expect(response.status).toBe(400);
    expect(response.body.errors.join(' ')).toMatch(new RegExp(query.split('=')[0]));
  });
});

describe('GET /api/affiliates/{affiliate_id}/report handler', () => {
  test("answers the report of one of the application's affiliates, a row per day", async () => {
    const response = answer(await reportOf('aff_1', '?from=2026-03-01&to=2026-03-03'));

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ affiliate_id: 'aff_1', currency: 'EUR', from: '2026-03-01', to: '2026-03-03', links: [], months: [] });
    expect(response.body.days.map((day: { date: string }) => day.date)).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
    expect(response.body.totals.commission).toBe('0.00');
  });

  test("answers 404 Not Found for another application's affiliate and for an unknown one", async () => {
    expect(answer(await reportOf('aff_2', '?from=2026-03-01&to=2026-03-31'))).toEqual({ status: 404, body: { message: 'Not Found' } });
    expect(answer(await reportOf('aff_none', '?from=2026-03-01&to=2026-03-31'))).toEqual({ status: 404, body: { message: 'Not Found' } });
  });

  test.each([
    ['without a key', null],
    ['with an unknown key', 'wrong-key'],
    ['with a comms key', 'comms-key'],
  ])('answers 403 %s', async (_, key) => {
    expect(answer(await reportOf('aff_1', '?from=2026-03-01&to=2026-03-31', key))).toEqual({ status: 403, body: { message: 'Forbidden' } });
  });

  test.each([
    ['?to=2026-03-31', 'from'],
    ['?from=2026-03-01', 'to'],
    ['?from=2026-3-1&to=2026-03-31', 'from'],
    ['?from=2026-02-30&to=2026-03-31', 'from'],
    ['?from=2026-03-01&to=2026-13-01', 'to'],
    ['?from=2026-03-02&to=2026-03-01', 'to'],
    ['?from=2025-01-01&to=2026-01-02', 'to'],
  ])('answers 400 for %s, naming %s', async (query, field) => {
    const response = answer(await reportOf('aff_1', query));

    expect(response.status).toBe(400);
    expect(response.body.errors.length).toBe(1);
    expect(response.body.errors[0]).toMatch(new RegExp(`^${field} `));
  });
});
