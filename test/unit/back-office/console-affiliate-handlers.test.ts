import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type GetCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { consoleCsrfToken, hashSecret, newSecret } from '../../../functions/domain/enterprise';
import { apiEvent, context, setFunctionEnv, type ProxyHandler } from '../../support/lambda';

setFunctionEnv({
  PORTAL_SESSIONS_TABLE: 'sessions',
  ENTERPRISE_USERS_TABLE: 'users',
  APPS_TABLE: 'apps',
  AFFILIATES_TABLE: 'affiliates',
  LINKS_TABLE: 'links',
  FUNNEL_TABLE: 'funnel',
  AUDIT_LOG_TABLE: 'audit',
});

const dynamo = mockClient(DynamoDBDocumentClient);
const sessionId = newSecret();
const affiliate = {
  app_id: 'app_1',
  sk: 'affiliate#aff_1',
  affiliate_id: 'aff_1',
  email: 'ada@example.com',
  username: 'ada',
  first_name: 'Ada',
  last_name: 'Lovelace',
  password_hash: 'scrypt$secret-hash',
  created_at: '2026-11-01T00:00:00.000Z',
  status: 'pending',
  postback_url: 'https://tracker.example/pb?e={event}',
};

let items: Record<string, Record<string, unknown>>;
const asUser = (role: string) => {
  items['users:user#app_1#usr_1'] = {
    pk: 'user#app_1#usr_1',
    app_id: 'app_1',
    user_id: 'usr_1',
    email: 'ada@example.com',
    first_name: 'Ada',
    last_name: 'L',
    created_at: '2026-11-01T00:00:00.000Z',
    role,
  };
};

const names = [
  'console-set-affiliate-status',
  'console-assign-affiliate-plan',
  'console-get-affiliate',
  'console-list-affiliates',
  'console-affiliate-report-csv',
] as const;
const handlers: Partial<Record<(typeof names)[number], ProxyHandler>> = {};
beforeAll(async () => {
  for (const name of names) handlers[name] = (await import(`../../../functions/console/${name}/handler`)).handler as unknown as ProxyHandler;
});

beforeEach(() => {
  dynamo.reset();
  items = {
    [`sessions:${hashSecret(sessionId)}`]: {
      session_hash: hashSecret(sessionId),
      app_id: 'app_1',
      user_id: 'usr_1',
      created_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + 60_000).toISOString(),
      cookie_secure: false,
    },
    'apps:app_1': { app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00.000Z', currency: 'EUR' },
    'affiliates:app_1,affiliate#aff_1': affiliate,
    'affiliates:app_1,plan#plan_1': {
      app_id: 'app_1',
      sk: 'plan#plan_1',
      plan_id: 'plan_1',
      name: 'CPA 50',
      cpa: { amount: '50.00', min_deposit: '0.00' },
      created_at: '2026-01-01T00:00:00.000Z',
    },
  };
  asUser('marketer');
  dynamo.on(GetCommand).callsFake((input: GetCommandInput) => ({ Item: items[`${input.TableName}:${Object.values(input.Key ?? {}).join()}`] }));
  dynamo.on(UpdateCommand).callsFake((input: UpdateCommandInput) => ({
    Attributes: {
      ...affiliate,
      ...Object.fromEntries(
        Object.entries(input.ExpressionAttributeNames ?? {}).map(([ref, name]) => [name, input.ExpressionAttributeValues?.[ref.replace('#f', ':v')]]),
      ),
    },
  }));
  dynamo.on(PutCommand).resolves({});
});

const call = (name: (typeof names)[number], method: string, path: string, options: { body?: unknown; csrf?: string; affiliateId?: string } = {}) => {
  const event = apiEvent({
    method,
    path,
    headers: {
      Cookie: `urm_portal_session=${sessionId}`,
      Host: 'api.example.test',
      ...(options.body ? { 'Content-Type': 'application/json' } : {}),
      ...(options.csrf ? { 'X-CSRF-Token': options.csrf } : {}),
    },
    body: options.body ? JSON.stringify(options.body) : undefined,
  });
  event.pathParameters = options.affiliateId ? { affiliate_id: options.affiliateId } : null;
  return handlers[name]!(event, context());
};
const auditPuts = () =>
  dynamo
    .commandCalls(PutCommand)
    .filter((c) => c.args[0].input.TableName === 'audit')
    .map((c) => c.args[0].input.Item);

describe('approving and suspending from the console', () => {
  test("a marketer's approval updates the application's affiliate and writes affiliate.approved with who did it", async () => {
    const response = await call('console-set-affiliate-status', 'POST', '/console/api/affiliates/aff_1/status', {
      body: { status: 'approved' },
      csrf: consoleCsrfToken(sessionId),
      affiliateId: 'aff_1',
    });

    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body).affiliate).toMatchObject({ affiliate_id: 'aff_1', status: 'approved' });
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      TableName: 'affiliates',
      Key: { app_id: 'app_1', sk: 'affiliate#aff_1' },
      ExpressionAttributeValues: { ':v0': 'approved' },
    });
    expect(auditPuts()).toEqual([
      expect.objectContaining({
        app_id: 'app_1',
        actor: { user_id: 'usr_1', email: 'ada@example.com' },
        action: 'affiliate.approved',
        target: 'affiliate:aff_1',
        details: { from: 'pending', to: 'approved' },
      }),
    ]);
    expect(response.body).not.toContain('secret-hash');
  });

  test('a viewer is refused with 403 and nothing is changed or audited', async () => {
    asUser('viewer');

    const response = await call('console-set-affiliate-status', 'POST', '/console/api/affiliates/aff_1/status', {
      body: { status: 'suspended' },
      csrf: consoleCsrfToken(sessionId),
      affiliateId: 'aff_1',
    });

    expect([response.statusCode, JSON.parse(response.body)]).toEqual([403, { message: 'Forbidden' }]);
    expect(dynamo).not.toHaveReceivedCommand(UpdateCommand);
    expect(auditPuts()).toEqual([]);
  });

  test('without the CSRF token the change is refused with 403', async () => {
    const response = await call('console-set-affiliate-status', 'POST', '/console/api/affiliates/aff_1/status', {
      body: { status: 'suspended' },
      affiliateId: 'aff_1',
    });

    expect([response.statusCode, JSON.parse(response.body)]).toEqual([403, { message: 'CSRF token missing or invalid' }]);
    expect(dynamo).not.toHaveReceivedCommand(UpdateCommand);
  });

  test('pending is not a decision: 400 naming the field', async () => {
    const response = await call('console-set-affiliate-status', 'POST', '/console/api/affiliates/aff_1/status', {
      body: { status: 'pending' },
      csrf: consoleCsrfToken(sessionId),
      affiliateId: 'aff_1',
    });

    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).errors.join()).toMatch(/status/);
    expect(dynamo).not.toHaveReceivedCommand(UpdateCommand);
  });
});

describe('assigning a plan from the console', () => {
  test('puts the affiliate on the plan and writes affiliate.plan_assigned', async () => {
    const response = await call('console-assign-affiliate-plan', 'POST', '/console/api/affiliates/aff_1/plan', {
      body: { plan_id: 'plan_1' },
      csrf: consoleCsrfToken(sessionId),
      affiliateId: 'aff_1',
    });

    expect([response.statusCode, JSON.parse(response.body).affiliate.plan_id]).toEqual([200, 'plan_1']);
    expect(auditPuts()).toEqual([
      expect.objectContaining({ action: 'affiliate.plan_assigned', target: 'affiliate:aff_1', details: { from: null, to: 'plan_1' } }),
    ]);
  });

  test('a plan not in the application is 404, and the affiliate is left as it was', async () => {
    const response = await call('console-assign-affiliate-plan', 'POST', '/console/api/affiliates/aff_1/plan', {
      body: { plan_id: 'plan_theirs' },
      csrf: consoleCsrfToken(sessionId),
      affiliateId: 'aff_1',
    });

    expect(response.statusCode).toBe(404);
    expect(dynamo).toHaveReceivedCommandWith(GetCommand, { TableName: 'affiliates', Key: { app_id: 'app_1', sk: 'plan#plan_theirs' } });
    expect(dynamo).not.toHaveReceivedCommand(UpdateCommand);
    expect(auditPuts()).toEqual([]);
  });
});

describe('reading affiliates from the console', () => {
  test("one affiliate comes with its links' click addresses on the API's origin and whether postbacks are on, never the URL or the hash", async () => {
    asUser('viewer');
    dynamo.on(QueryCommand, { TableName: 'links' }).resolves({
      Items: [
        {
          link_id: 'lnk_1',
          app_id: 'app_1',
          affiliate_id: 'aff_1',
          owner: 'app_1#aff_1',
          name: 'Spring',
          landing_url: 'https://casino.example/',
          created_at: '2026-11-02T00:00:00.000Z',
        },
      ],
    });

    const response = await call('console-get-affiliate', 'GET', '/console/api/affiliates/aff_1', { affiliateId: 'aff_1' });

    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body).affiliate).toMatchObject({
      affiliate_id: 'aff_1',
      status: 'pending',
      plan: null,
      links: [{ link_id: 'lnk_1', name: 'Spring', click_url: 'http://api.example.test/t/lnk_1' }],
      postback_url_set: true,
    });
    expect(response.body).not.toMatch(/secret-hash|tracker\.example/);
  });

  test('an id no affiliate can have is 404 without reaching the table', async () => {
    const response = await call('console-get-affiliate', 'GET', `/console/api/affiliates/${'x'.repeat(129)}`, { affiliateId: 'x'.repeat(129) });

    expect(response.statusCode).toBe(404);
    expect(dynamo.commandCalls(GetCommand).filter((c) => c.args[0].input.TableName === 'affiliates')).toEqual([]);
  });

  test("the listing by status queries the session's application only, filtered on the status", async () => {
    dynamo.on(QueryCommand, { TableName: 'affiliates' }).resolves({ Items: [{ ...affiliate, status: 'suspended' }] });

    const response = await call('console-list-affiliates', 'GET', '/console/api/affiliates?status=suspended&limit=10');

    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({
      affiliates: [expect.objectContaining({ affiliate_id: 'aff_1', status: 'suspended', plan: null })],
      next_cursor: null,
    });
    expect(dynamo).toHaveReceivedCommandWith(QueryCommand, {
      TableName: 'affiliates',
      FilterExpression: '#status = :status',
      ExpressionAttributeValues: { ':app': 'app_1', ':prefix': 'affiliate#', ':status': 'suspended' },
    });
  });

  test('the report CSV is an attachment named after the affiliate and its range, the rows the portal makes', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [] });

    const response = await call('console-affiliate-report-csv', 'GET', '/console/api/affiliates/aff_1/report.csv?from=2026-11-01&to=2026-11-02', {
      affiliateId: 'aff_1',
    });

    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="affiliate-report-aff_1-2026-11-01-to-2026-11-02.csv"',
      'Cache-Control': 'no-store',
    });
    expect(response.body.split('\r\n').map((line) => line.split(',')[0])).toEqual(['row', 'day', 'day', 'total', '']);
  });
});
