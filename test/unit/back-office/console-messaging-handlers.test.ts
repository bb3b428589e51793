import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { KinesisClient, PutRecordsCommand } from '@aws-sdk/client-kinesis';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand, type GetCommandInput, type PutCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { consoleCsrfToken, hashSecret, newSecret } from '../../../functions/domain/enterprise';
import { decodeEnvelope } from '../../../functions/domain/stream-record';
import { acceptedPutRecords, apiEvent, context, setFunctionEnv, type ProxyHandler } from '../../support/lambda';

setFunctionEnv({
  PORTAL_SESSIONS_TABLE: 'sessions',
  ENTERPRISE_USERS_TABLE: 'users',
  PROFILES_TABLE: 'profiles',
  CHANNELS_TABLE: 'channels',
  PUSH_DELIVERIES_TABLE: 'deliveries',
  APPS_TABLE: 'apps',
  STREAM_NAME: 'stream',
  AUDIT_LOG_TABLE: 'audit',
  SECRETS_PREFIX: '/urm/test',
});

const dynamo = mockClient(DynamoDBDocumentClient);
const kinesis = mockClient(KinesisClient);
const ses = mockClient(SESv2Client);
const sessionId = newSecret();
const actionId = '7b0f8a52-3c1e-4d7a-9f0b-2a6c5e4d3b21';

const profile = (id: string, attrs: Record<string, unknown>) => ({
  pk: `app_1#${id}`,
  app_id: 'app_1',
  profile_id: id,
  attrs: JSON.stringify(attrs),
  exists: true,
  version: 1,
  updated_at: '2026-11-20T10:00:00.000Z',
  applied: {},
  recent: {},
});
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

const handlers: Record<string, ProxyHandler> = {};
beforeAll(async () => {
  for (const name of ['console-email-player', 'console-push-player']) {
    handlers[name] = (await import(`../../../functions/console/${name}/handler`)).handler as unknown as ProxyHandler;
  }
});

beforeEach(() => {
  dynamo.reset();
  kinesis.reset();
  ses.reset();
  items = {
    [`sessions:${hashSecret(sessionId)}`]: {
      session_hash: hashSecret(sessionId),
      app_id: 'app_1',
      user_id: 'usr_1',
      created_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + 60_000).toISOString(),
      cookie_secure: false,
    },
    'profiles:app_1#p-1': profile('p-1', { email: 'ann@example.com', name: 'Ann Lee' }),
    'profiles:app_1#p-bare': profile('p-bare', { vip: true }),
    'channels:app_1,ch_news': {
      app_id: 'app_1',
      channel_id: 'ch_news',
      name: 'News',
      from_email: 'news@example.com',
      from_name: 'Casino News',
      enabled: true,
      created_at: '2026-11-01T00:00:00.000Z',
    },
  };
  asUser('marketer');
  dynamo.on(GetCommand).callsFake((input: GetCommandInput) => ({ Item: items[`${input.TableName}:${Object.values(input.Key ?? {}).join()}`] }));
  // The action claim: put only if absent.
  dynamo.on(PutCommand, { TableName: 'deliveries' }).callsFake((input: PutCommandInput) => {
    const key = `deliveries:${input.Item!.pk},${input.Item!.subscription}`;
    if (items[key]) throw new ConditionalCheckFailedException({ message: 'taken', $metadata: {} });
    items[key] = input.Item!;
    return {};
  });
  kinesis.on(PutRecordsCommand).callsFake(acceptedPutRecords);
  ses.on(SendEmailCommand).resolves({ MessageId: 'ses-msg-1' });
});

const call = (name: string, profileId: string, body: unknown, options: { csrf?: string | null } = {}) => {
  const csrf = options.csrf === undefined ? consoleCsrfToken(sessionId) : options.csrf;
  const event = apiEvent({
    method: 'POST',
    path: `/console/api/players/${profileId}/${name === 'console-email-player' ? 'email' : 'push'}`,
    headers: { Cookie: `urm_portal_session=${sessionId}`, 'Content-Type': 'application/json', ...(csrf ? { 'X-CSRF-Token': csrf } : {}) },
    body: JSON.stringify(body),
  });
  event.pathParameters = { profile_id: profileId };
  return handlers[name]!(event, context());
};

const email = { channel_id: 'ch_news', subject: 'Your bonus', html_body: '<p>Hello</p>', action_id: actionId };

describe('emailing a player from the console', () => {
  test("a marketer's mail goes through SES to the player's address, with the event on the stream and the audit entry", async () => {
    const response = await call('console-email-player', 'p-1', email);

    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ action_id: actionId, message_id: 'ses-msg-1' });
    expect(ses).toHaveReceivedCommandTimes(SendEmailCommand, 1);
    expect(ses).toHaveReceivedCommandWith(SendEmailCommand, {
      FromEmailAddress: '"Casino News" <news@example.com>',
      Destination: { ToAddresses: ['"Ann Lee" <ann@example.com>'] },
    });
    expect(dynamo).toHaveReceivedCommandWith(PutCommand, {
      TableName: 'deliveries',
      Item: expect.objectContaining({ pk: `app_1#bo#${actionId}`, subscription: 'action' }),
    });
    const records = kinesis.commandCalls(PutRecordsCommand).flatMap((c) => c.args[0].input.Records!);
    expect(records.map((r) => [r.PartitionKey, decodeEnvelope(r.Data!).record])).toEqual([
      ['app_1#p-1', expect.objectContaining({ event: 'urm_email_sent', message_id: 'ses-msg-1', user_id: 'usr_1', user_email: 'ada@example.com' })],
    ]);
    expect(dynamo).toHaveReceivedCommandWith(PutCommand, {
      TableName: 'audit',
      Item: expect.objectContaining({ action: 'player.email_sent', target: 'player:p-1' }),
    });
  });

  test('a retry with the same action_id answers the first message id and sends nothing', async () => {
    await call('console-email-player', 'p-1', email);
    const settled = dynamo.commandCalls(UpdateCommand).at(-1)!.args[0].input.ExpressionAttributeValues![':outcome'];
    items[`deliveries:app_1#bo#${actionId},action`]!.outcome = settled;
    ses.reset();

    const again = await call('console-email-player', 'p-1', email);

    expect(again.statusCode).toBe(200);
    expect(JSON.parse(again.body)).toEqual({ action_id: actionId, message_id: 'ses-msg-1' });
    expect(ses).not.toHaveReceivedCommand(SendEmailCommand);
  });

  test('a player without an email address is 409, and nothing is sent', async () => {
    const response = await call('console-email-player', 'p-bare', email);

    expect(response.statusCode).toBe(409);
    expect(JSON.parse(response.body)).toEqual({ message: 'the player has no email address (attribute email)' });
    expect(ses).not.toHaveReceivedCommand(SendEmailCommand);
  });

  test('a viewer is refused with 403, and nothing is sent', async () => {
    asUser('viewer');

    const response = await call('console-email-player', 'p-1', email);

    expect(response.statusCode).toBe(403);
    expect(ses).not.toHaveReceivedCommand(SendEmailCommand);
  });

  test('without the CSRF token the call is refused with 403, and nothing is sent', async () => {
    const response = await call('console-email-player', 'p-1', email, { csrf: null });

    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body)).toEqual({ message: 'CSRF token missing or invalid' });
    expect(ses).not.toHaveReceivedCommand(SendEmailCommand);
  });

  test('recipients in the body are refused: the mail goes to the player only', async () => {
    const response = await call('console-email-player', 'p-1', { ...email, to_addresses: [{ email: 'eve@example.com', name: 'Eve' }] });

    expect(response.statusCode).toBe(400);
    expect(ses).not.toHaveReceivedCommand(SendEmailCommand);
  });
});

describe('pushing to a player from the console', () => {
  test('a player without a web push device is 409, and nothing reaches the stream', async () => {
    const response = await call('console-push-player', 'p-bare', { title: 'Hi', body: 'there' });

    expect(response.statusCode).toBe(409);
    expect(JSON.parse(response.body)).toEqual({ message: 'the player has no web push device' });
    expect(kinesis).not.toHaveReceivedCommand(PutRecordsCommand);
  });

  test('a viewer is refused with 403', async () => {
    asUser('viewer');

    const response = await call('console-push-player', 'p-1', { title: 'Hi', body: 'there' });

    expect(response.statusCode).toBe(403);
  });
});
