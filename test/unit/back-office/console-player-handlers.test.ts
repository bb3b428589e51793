import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { KinesisClient, PutRecordsCommand } from '@aws-sdk/client-kinesis';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, QueryCommand, type GetCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { consoleCsrfToken, hashSecret, newSecret } from '../../../functions/domain/enterprise';
import { decodeEnvelope } from '../../../functions/domain/stream-record';
import { acceptedPutRecords, apiEvent, context, setFunctionEnv, type ProxyHandler } from '../../support/lambda';

setFunctionEnv({
  PORTAL_SESSIONS_TABLE: 'sessions',
  ENTERPRISE_USERS_TABLE: 'users',
  PROFILES_TABLE: 'profiles',
  REJECTIONS_TABLE: 'rejections',
  TIMELINE_TABLE: 'timeline',
  STREAM_NAME: 'stream',
  AUDIT_LOG_TABLE: 'audit',
});

const dynamo = mockClient(DynamoDBDocumentClient);
const kinesis = mockClient(KinesisClient);
const sessionId = newSecret();

const profile = {
  pk: 'app_1#p-1',
  app_id: 'app_1',
  profile_id: 'p-1',
  attrs: '{"vip":true}',
  exists: true,
  version: 1,
  updated_at: '2026-11-20T10:00:00.000Z',
  applied: {},
  recent: {},
};
let items: Record<string, Record<string, unknown>>;
const asUser = (role: string) => {
  items[`users:user#app_1#usr_1`] = {
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

const handlers: Record<string, ProxyHandler> = {};
beforeAll(async () => {
  for (const name of ['console-list-players', 'console-change-player-attribute']) {
    handlers[name] = (await import(`../../../functions/console/${name}/handler`)).handler as unknown as ProxyHandler;
  }
});

beforeEach(() => {
  dynamo.reset();
  kinesis.reset();
  items = {
    [`sessions:${hashSecret(sessionId)}`]: {
      session_hash: hashSecret(sessionId),
      app_id: 'app_1',
      user_id: 'usr_1',
      created_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + 60_000).toISOString(),
      cookie_secure: false,
    },
    'profiles:app_1#p-1': profile,
  };
  asUser('marketer');
  dynamo.on(GetCommand).callsFake((input: GetCommandInput) => ({ Item: items[`${input.TableName}:${Object.values(input.Key ?? {}).join()}`] }));
  kinesis.on(PutRecordsCommand).callsFake(acceptedPutRecords);
});

const call = (name: string, method: string, path: string, options: { body?: unknown; csrf?: string; profileId?: string } = {}) => {
  const event = apiEvent({
    method,
    path,
    headers: {
      Cookie: `urm_portal_session=${sessionId}`,
      ...(options.body ? { 'Content-Type': 'application/json' } : {}),
      ...(options.csrf ? { 'X-CSRF-Token': options.csrf } : {}),
    },
    body: options.body ? JSON.stringify(options.body) : undefined,
  });
  event.pathParameters = options.profileId ? { profile_id: options.profileId } : null;
  return handlers[name]!(event, context());
};

describe('setting an attribute from the console', () => {
  const change = { action: 'set', attribute: 'tier', value: 'gold' };

  test("a marketer's change goes on the stream as a profile record and an action event, under the player's key", async () => {
    const response = await call('console-change-player-attribute', 'POST', '/console/api/players/p-1/attributes', {
      body: change,
      csrf: consoleCsrfToken(sessionId),
      profileId: 'p-1',
    });

    expect(response.statusCode).toBe(200);
    expect(kinesis).toHaveReceivedCommandTimes(PutRecordsCommand, 1);
    const records = kinesis.commandCalls(PutRecordsCommand)[0]!.args[0].input.Records!;
    expect(records.map((r) => r.PartitionKey)).toEqual(['app_1#p-1', 'app_1#p-1']);
    expect(records.map((r) => decodeEnvelope(r.Data!).record)).toEqual([
      expect.objectContaining({ urm_set: { tier: 'gold' } }),
      expect.objectContaining({ event: 'urm_back_office_action', user_id: 'usr_1', attribute: 'tier' }),
    ]);
  });

  test('a viewer is refused with 403 and nothing reaches the stream', async () => {
    asUser('viewer');

    const response = await call('console-change-player-attribute', 'POST', '/console/api/players/p-1/attributes', {
      body: change,
      csrf: consoleCsrfToken(sessionId),
      profileId: 'p-1',
    });

    expect(response.statusCode).toBe(403);
    expect(kinesis).not.toHaveReceivedCommand(PutRecordsCommand);
  });

  test('an unknown player is 404 and nothing reaches the stream', async () => {
    const response = await call('console-change-player-attribute', 'POST', '/console/api/players/p-9/attributes', {
      body: change,
      csrf: consoleCsrfToken(sessionId),
      profileId: 'p-9',
    });

    expect(response.statusCode).toBe(404);
    expect(kinesis).not.toHaveReceivedCommand(PutRecordsCommand);
  });
});

describe('listing players from the console', () => {
  test("queries the by-app index of the session's application only", async () => {
    dynamo.on(QueryCommand).resolves({ Items: [{ app_id: 'app_1', profile_id: 'p-1', pk: 'app_1#p-1' }] });
    dynamo.on(BatchGetCommand).resolves({ Responses: { profiles: [profile] } });
    asUser('viewer');

    const response = await call('console-list-players', 'GET', '/console/api/players?prefix=p-');

    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ players: [{ profile_id: 'p-1', updated_at: profile.updated_at }], next_cursor: null });
    expect(dynamo).toHaveReceivedCommandWith(QueryCommand, {
      TableName: 'profiles',
      IndexName: 'by-app',
      KeyConditionExpression: 'app_id = :app AND begins_with(profile_id, :prefix)',
      ExpressionAttributeValues: { ':app': 'app_1', ':prefix': 'p-' },
    });
  });
});
