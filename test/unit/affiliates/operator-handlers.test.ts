import { beforeEach, describe, expect, jest, test } from '@jest/globals';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { makeGetAffiliateReportHandler } from '../../../functions/api/get-affiliate-report/make-handler';
import { makeListAffiliatesHandler } from '../../../functions/api/list-affiliates/make-handler';
import type { AffiliateRecord } from '../../../functions/domain/affiliates';
import { MemoryAffiliateStore, MemoryAppStore, MemoryFunnel, MemoryLinkStore, MemoryPlanStore } from '../../support/affiliates';
import { keyResolverOf } from '../../support/settings';
import { apiEvent, asProxyHandler, context, type ProxyHandler } from '../../support/lambda';

const keys = {
  'server-key': { app_id: 'app_1', scope: 'server', key_id: 'k1' },
  'comms-key': { app_id: 'app_1', scope: 'comms', key_id: 'k2' },
} as const;
const affiliate = (appId: string, affiliateId: string, extra: Partial<AffiliateRecord> = {}): AffiliateRecord => ({
  app_id: appId,
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

let affiliates: MemoryAffiliateStore;
let listAffiliates: ProxyHandler;
let report: ProxyHandler;
beforeEach(async () => {
  affiliates = new MemoryAffiliateStore();
  await affiliates.register(affiliate('app_1', 'aff_1', { status: 'suspended', plan_id: 'plan_1' }));
  await affiliates.register(affiliate('app_2', 'aff_2'));
  listAffiliates = asProxyHandler(makeListAffiliatesHandler({ keys: keyResolverOf(keys), affiliates }));
  // The funnel holds nothing here (no player was attributed), and the affiliate has no links.
  report = asProxyHandler(
    makeGetAffiliateReportHandler({
      keys: keyResolverOf(keys),
      apps: new MemoryAppStore([{ app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z' }]),
      affiliates,
      plans: new MemoryPlanStore(),
      funnel: new MemoryFunnel(),
      links: new MemoryLinkStore(),
    }),
  );
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
  });

  test.each([
    ['without a key', null],
    ['with an unknown key', 'wrong-key'],
    ['with a comms key', 'comms-key'],
  ])('answers 403 %s', async (_, key) => {
    const pages = jest.spyOn(affiliates, 'page');

    expect(answer(await get(listAffiliates, '/api/affiliates', key))).toEqual({ status: 403, body: { message: 'Forbidden' } });
    expect(pages).not.toHaveBeenCalled();
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
