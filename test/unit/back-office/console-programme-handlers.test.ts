/**
 * The console's operations for what the admin command line did alone: create a plan, an affiliate's tracking link,
 * its postbacks (URL, off, a new secret) and their delivery log, and the application's rejections.
 */
import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { GetParameterCommand, ParameterNotFound, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type GetCommandInput,
  type QueryCommandInput,
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
  REJECTIONS_TABLE: 'rejections',
  SECRETS_PREFIX: '/urm/test',
});

const dynamo = mockClient(DynamoDBDocumentClient);
const ssm = mockClient(SSMClient);
const sessionId = newSecret();
const csrf = consoleCsrfToken(sessionId);

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
  'console-create-plan',
  'console-create-affiliate-link',
  'console-affiliate-postbacks',
  'console-update-affiliate-postbacks',
  'console-list-rejections',
] as const;
type Name = (typeof names)[number];
const handlers: Partial<Record<Name, ProxyHandler>> = {};
beforeAll(async () => {
  for (const name of names) handlers[name] = (await import(`../../../functions/console/${name}/handler`)).handler as unknown as ProxyHandler;
});

beforeEach(() => {
  dynamo.reset();
  ssm.reset();
  items = {
    [`sessions:${hashSecret(sessionId)}`]: {
      session_hash: hashSecret(sessionId),
      app_id: 'app_1',
      user_id: 'usr_1',
      created_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + 60_000).toISOString(),
      cookie_secure: false,
    },
    'apps:app_1': { app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00.000Z', currency: 'EUR', site_origins: ['https://casino.example'] },
    'affiliates:app_1,affiliate#aff_1': {
      app_id: 'app_1',
      sk: 'affiliate#aff_1',
      affiliate_id: 'aff_1',
      email: 'bo@example.com',
      username: 'bo',
      first_name: 'Bo',
      last_name: 'B',
      created_at: '2026-11-01T00:00:00.000Z',
    },
  };
  asUser('marketer');
  dynamo.on(GetCommand).callsFake((input: GetCommandInput) => ({ Item: items[`${input.TableName}:${Object.values(input.Key ?? {}).join()}`] }));
  dynamo.on(PutCommand).resolves({});
  dynamo.on(UpdateCommand).resolves({});
  ssm.on(GetParameterCommand).rejects(new ParameterNotFound({ message: 'not found', $metadata: {} }));
  ssm.on(PutParameterCommand).resolves({});
});

const call = (
  name: Name,
  method: string,
  path: string,
  options: { body?: unknown; csrf?: string; affiliateId?: string; query?: Record<string, string> } = {},
) => {
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
  event.queryStringParameters = options.query ?? null;
  return handlers[name]!(event, context());
};
const answer = async (response: Promise<{ statusCode: number; body: string }>) => {
  const { statusCode, body } = await response;
  return [statusCode, JSON.parse(body)] as const;
};
const auditPuts = () =>
  dynamo
    .commandCalls(PutCommand)
    .filter((c) => c.args[0].input.TableName === 'audit')
    .map((c) => c.args[0].input.Item);
const writesTo = (table: string) =>
  dynamo.commandCalls(PutCommand).filter((c) => c.args[0].input.TableName === table).length +
  dynamo.commandCalls(UpdateCommand).filter((c) => c.args[0].input.TableName === table).length;

describe('creating a plan from the console', () => {
  test('stores the plan in the application, answers 201 with its terms and writes plan.created naming who', async () => {
    const [status, body] = await answer(
      call('console-create-plan', 'POST', '/console/api/plans', {
        body: { name: 'Hybrid', cpa: { amount: '50', min_deposit: '20' }, revshare: { percent: '25' } },
        csrf,
      }),
    );

    expect(status).toBe(201);
    expect(body.plan).toMatchObject({
      name: 'Hybrid',
      cpa: { amount: '50.00', min_deposit: '20.00' },
      revshare: { percent: '25' },
      terms: expect.stringContaining('CPA'),
    });
    expect(body.plan.app_id).toBeUndefined();
    expect(dynamo).toHaveReceivedCommandWith(PutCommand, {
      TableName: 'affiliates',
      Item: expect.objectContaining({ app_id: 'app_1', plan_id: body.plan.plan_id }),
    });
    expect(auditPuts()).toEqual([
      expect.objectContaining({
        app_id: 'app_1',
        actor: { user_id: 'usr_1', email: 'ada@example.com' },
        action: 'plan.created',
        target: `plan:${body.plan.plan_id}`,
      }),
    ]);
  });

  test('a plan with neither CPA nor RevShare is 400 in words, and nothing is stored', async () => {
    const [status, body] = await answer(call('console-create-plan', 'POST', '/console/api/plans', { body: { name: 'Nothing' }, csrf }));

    expect([status, body.errors]).toEqual([400, ['a plan needs cpa, revshare or both']]);
    expect(dynamo).not.toHaveReceivedCommand(PutCommand);
  });

  test('a viewer is refused with 403, and without the CSRF token so is a marketer', async () => {
    const plan = { name: 'CPA', cpa: { amount: '50' } };
    const noToken = await answer(call('console-create-plan', 'POST', '/console/api/plans', { body: plan }));
    asUser('viewer');
    const viewer = await answer(call('console-create-plan', 'POST', '/console/api/plans', { body: plan, csrf }));

    expect([noToken[0], viewer[0]]).toEqual([403, 403]);
    expect(dynamo).not.toHaveReceivedCommand(PutCommand);
  });
});

describe("creating an affiliate's tracking link from the console", () => {
  test('answers 201 with the click address on the API origin and writes link.created', async () => {
    const [status, body] = await answer(
      call('console-create-affiliate-link', 'POST', '/console/api/affiliates/aff_1/links', {
        body: { name: 'Spring', landing_url: 'https://casino.example/welcome' },
        csrf,
        affiliateId: 'aff_1',
      }),
    );

    expect(status).toBe(201);
    expect(body.link).toEqual({
      link_id: expect.any(String),
      name: 'Spring',
      landing_url: 'https://casino.example/welcome',
      created_at: expect.any(String),
      click_url: `http://api.example.test/t/${body.link.link_id}`,
    });
    expect(dynamo).toHaveReceivedCommandWith(PutCommand, {
      TableName: 'links',
      Item: expect.objectContaining({ app_id: 'app_1', affiliate_id: 'aff_1', link_id: body.link.link_id }),
    });
    expect(auditPuts()).toEqual([
      expect.objectContaining({
        action: 'link.created',
        target: 'affiliate:aff_1',
        details: { link_id: body.link.link_id, name: 'Spring', landing_url: 'https://casino.example/welcome' },
      }),
    ]);
  });

  test("a landing URL off the application's site origins is 400 naming them", async () => {
    const [status, body] = await answer(
      call('console-create-affiliate-link', 'POST', '/console/api/affiliates/aff_1/links', {
        body: { name: 'Away', landing_url: 'https://elsewhere.example/' },
        csrf,
        affiliateId: 'aff_1',
      }),
    );

    expect([status, body.errors]).toEqual([400, ["landing_url must be on one of the application's site origins: https://casino.example"]]);
    expect(writesTo('links')).toBe(0);
  });

  test("another application's affiliate is 404 and no link is made", async () => {
    const [status] = await answer(
      call('console-create-affiliate-link', 'POST', '/console/api/affiliates/aff_theirs/links', {
        body: { name: 'Spring', landing_url: 'https://casino.example/' },
        csrf,
        affiliateId: 'aff_theirs',
      }),
    );

    expect(status).toBe(404);
    expect(dynamo).toHaveReceivedCommandWith(GetCommand, { TableName: 'affiliates', Key: { app_id: 'app_1', sk: 'affiliate#aff_theirs' } });
    expect(writesTo('links') + auditPuts().length).toBe(0);
  });
});

describe("an affiliate's postbacks from the console", () => {
  test('the first URL makes a signing secret, answered once; the audit entry names the host, never the secret or the template', async () => {
    const url = 'https://tracker.example/pb?e={event}&token=affiliates-own';
    const [status, body] = await answer(
      call('console-update-affiliate-postbacks', 'POST', '/console/api/affiliates/aff_1/postbacks', {
        body: { action: 'set', postback_url: url },
        csrf,
        affiliateId: 'aff_1',
      }),
    );

    expect(status).toBe(200);
    expect(body).toEqual({ postback_url_set: true, signing_secret: expect.any(String) });
    expect(ssm).toHaveReceivedCommandWith(PutParameterCommand, { Name: '/urm/test/apps/app_1/affiliates/aff_1/postback-secret', Value: body.signing_secret });
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      TableName: 'affiliates',
      Key: { app_id: 'app_1', sk: 'affiliate#aff_1' },
      ExpressionAttributeValues: { ':url': url },
    });
    expect(auditPuts()).toEqual([
      expect.objectContaining({ action: 'affiliate.postback_url_set', target: 'affiliate:aff_1', details: { host: 'tracker.example', secret_made: true } }),
    ]);
    expect(JSON.stringify(auditPuts())).not.toContain(body.signing_secret);
    expect(JSON.stringify(auditPuts())).not.toContain('affiliates-own');
  });

  test('a URL that is not https to a public host is 400 and nothing is written', async () => {
    const [status, body] = await answer(
      call('console-update-affiliate-postbacks', 'POST', '/console/api/affiliates/aff_1/postbacks', {
        body: { action: 'set', postback_url: 'http://10.0.0.1/pb' },
        csrf,
        affiliateId: 'aff_1',
      }),
    );

    expect(status).toBe(400);
    expect(body.errors.join()).toMatch(/url/);
    expect(ssm).not.toHaveReceivedCommand(PutParameterCommand);
    expect(writesTo('affiliates') + auditPuts().length).toBe(0);
  });

  test('off and a new secret are audited; a URL with anything but set is 400', async () => {
    const off = await answer(
      call('console-update-affiliate-postbacks', 'POST', '/console/api/affiliates/aff_1/postbacks', { body: { action: 'off' }, csrf, affiliateId: 'aff_1' }),
    );
    const rotated = await answer(
      call('console-update-affiliate-postbacks', 'POST', '/console/api/affiliates/aff_1/postbacks', {
        body: { action: 'rotate_secret' },
        csrf,
        affiliateId: 'aff_1',
      }),
    );
    const mixed = await answer(
      call('console-update-affiliate-postbacks', 'POST', '/console/api/affiliates/aff_1/postbacks', {
        body: { action: 'off', postback_url: 'https://tracker.example/' },
        csrf,
        affiliateId: 'aff_1',
      }),
    );

    expect(off).toEqual([200, { postback_url_set: false }]);
    expect(rotated).toEqual([200, { postback_url_set: false, signing_secret: expect.any(String) }]);
    expect(mixed).toEqual([400, { message: 'request body is invalid', errors: ['postback_url goes with action "set" only'] }]);
    expect(auditPuts().map((entry) => entry?.action)).toEqual(['affiliate.postbacks_off', 'affiliate.postback_secret_rotated']);
  });

  test("a viewer may not change them (403), and another application's affiliate is 404", async () => {
    const theirs = await answer(
      call('console-update-affiliate-postbacks', 'POST', '/console/api/affiliates/aff_theirs/postbacks', {
        body: { action: 'off' },
        csrf,
        affiliateId: 'aff_theirs',
      }),
    );
    asUser('viewer');
    const viewer = await answer(
      call('console-update-affiliate-postbacks', 'POST', '/console/api/affiliates/aff_1/postbacks', { body: { action: 'off' }, csrf, affiliateId: 'aff_1' }),
    );

    expect([theirs[0], viewer[0]]).toEqual([404, 403]);
    expect(writesTo('affiliates') + auditPuts().length).toBe(0);
  });

  test('a viewer reads whether they are on, to which host, and the delivery log newest first', async () => {
    asUser('viewer');
    items['affiliates:app_1,affiliate#aff_1']!.postback_url = 'https://tracker.example/pb?e={event}&token=affiliates-own';
    dynamo.on(QueryCommand, { TableName: 'funnel' }).resolves({
      Items: [{ pk: 'x', sk: 'pb#…', event_id: 'ev_1', event: 'ftd', at: '2026-11-02T00:00:00.000Z', attempts: 1, outcome: 'delivered', status_code: 200 }],
    });

    const [status, body] = await answer(
      call('console-affiliate-postbacks', 'GET', '/console/api/affiliates/aff_1/postbacks', { affiliateId: 'aff_1', query: { limit: '20' } }),
    );

    expect(status).toBe(200);
    expect(body).toEqual({
      postback_url_set: true,
      postback_host: 'tracker.example',
      deliveries: [{ event_id: 'ev_1', event: 'ftd', at: '2026-11-02T00:00:00.000Z', attempts: 1, outcome: 'delivered', status_code: 200 }],
    });
    expect(dynamo).toHaveReceivedCommandWith(QueryCommand, { TableName: 'funnel', Limit: 20, ScanIndexForward: false });
  });
});

describe("the application's rejections in the console", () => {
  const rejection = (n: number) => ({
    app_id: 'app_1',
    rejection_id: `2026-11-0${n}T00:00:00.000Z#shardId-0#${n}`,
    expires_at: 1,
    profile_id: `player-${n}`,
    urm_insert_id: `ins-${n}`,
    kind: 'event',
    shard: 'shardId-0',
    seq: String(n),
    reason: 'the profile was deleted',
    record: '{}',
    record_truncated: false,
    received_at: `2026-11-0${n}T00:00:00.000Z`,
    rejected_at: `2026-11-0${n}T00:00:01.000Z`,
  });

  test('pages newest first with a cursor bound to the application; the next page starts after the last one shown', async () => {
    dynamo
      .on(QueryCommand, { TableName: 'rejections' })
      .callsFake((input: QueryCommandInput) =>
        input.ExclusiveStartKey
          ? { Items: [rejection(1)] }
          : { Items: [rejection(3), rejection(2)], LastEvaluatedKey: { app_id: 'app_1', rejection_id: rejection(2).rejection_id } },
      );
    asUser('viewer');

    const [status, first] = await answer(call('console-list-rejections', 'GET', '/console/api/rejections', { query: { limit: '2' } }));
    const [, second] = await answer(call('console-list-rejections', 'GET', '/console/api/rejections', { query: { limit: '2', cursor: first.next_cursor } }));

    expect(status).toBe(200);
    expect(first.rejections.map((r: { profile_id: string }) => r.profile_id)).toEqual(['player-3', 'player-2']);
    expect(first.rejections[0]).not.toHaveProperty('rejection_id');
    expect(second).toEqual({ rejections: [expect.objectContaining({ profile_id: 'player-1' })], next_cursor: null });
    expect(dynamo.commandCalls(QueryCommand)[1]!.args[0].input).toMatchObject({
      KeyConditionExpression: 'app_id = :app',
      ExpressionAttributeValues: { ':app': 'app_1' },
      ExclusiveStartKey: { app_id: 'app_1', rejection_id: rejection(2).rejection_id },
      ScanIndexForward: false,
      Limit: 2,
    });
  });

  test("another application's cursor is 400, and nothing is read", async () => {
    const theirs = Buffer.from(JSON.stringify(['app_2', '2026-11-02T00:00:00.000Z#shardId-0#2'])).toString('base64url');

    const [status, body] = await answer(call('console-list-rejections', 'GET', '/console/api/rejections', { query: { cursor: theirs } }));

    expect([status, body.errors]).toEqual([400, ['cursor is not one this listing gave']]);
    expect(dynamo).not.toHaveReceivedCommandWith(QueryCommand, { TableName: 'rejections' });
  });
});
