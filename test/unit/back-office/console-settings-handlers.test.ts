import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
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
import { hashApiKey } from '../../../functions/domain/api-keys';
import { consoleCsrfToken, hashSecret, newSecret } from '../../../functions/domain/enterprise';
import { apiEvent, context, setFunctionEnv, type ProxyHandler } from '../../support/lambda';

setFunctionEnv({
  PORTAL_SESSIONS_TABLE: 'sessions',
  ENTERPRISE_USERS_TABLE: 'users',
  APPS_TABLE: 'apps',
  KEYS_TABLE: 'keys',
  AUDIT_LOG_TABLE: 'audit',
  SECRETS_PREFIX: '/urm/test',
});

const dynamo = mockClient(DynamoDBDocumentClient);
const ssm = mockClient(SSMClient);
const sessionId = newSecret();

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
  // One at a time: jest's ESM loader must not import modules concurrently.
  for (const name of ['console-issue-key', 'console-revoke-key', 'console-list-keys', 'console-rotate-identity-secret', 'console-generate-vapid']) {
    handlers[name] = (await import(`../../../functions/console/${name}/handler`)).handler as unknown as ProxyHandler;
  }
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
    'apps:app_1': { app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00.000Z', portal_origin: 'https://portal.example.com' },
  };
  asUser('admin');
  dynamo.on(GetCommand).callsFake((input: GetCommandInput) => ({ Item: items[`${input.TableName}:${Object.values(input.Key ?? {}).join()}`] }));
  dynamo.on(UpdateCommand, { TableName: 'apps' }).callsFake(updatedApp);
});

/** The application as DynamoAppStore's `SET #f0 = :v0, …` leaves it. */
function updatedApp(input: UpdateCommandInput) {
  const names = Object.entries(input.ExpressionAttributeNames ?? {});
  return {
    Attributes: { ...items['apps:app_1'], ...Object.fromEntries(names.map(([ref, name]) => [name, input.ExpressionAttributeValues?.[`:v${ref.slice(2)}`]])) },
  };
}

const call = (name: string, method: string, path: string, options: { body?: unknown; csrf?: boolean; keyId?: string } = {}) => {
  const event = apiEvent({
    method,
    path,
    headers: {
      Cookie: `urm_portal_session=${sessionId}`,
      ...(options.body ? { 'Content-Type': 'application/json' } : {}),
      ...(options.csrf === false ? {} : { 'X-CSRF-Token': consoleCsrfToken(sessionId) }),
    },
    body: options.body ? JSON.stringify(options.body) : undefined,
  });
  event.pathParameters = options.keyId ? { key_id: options.keyId } : null;
  return handlers[name]!(event, context());
};

const putsTo = (table: string) =>
  dynamo
    .commandCalls(PutCommand)
    .filter((c) => c.args[0].input.TableName === table)
    .map((c) => c.args[0].input.Item!);

describe('issuing a key from the console', () => {
  test('stores only the hash of the key it answers, and audits the key id and scope without the key', async () => {
    const response = await call('console-issue-key', 'POST', '/console/api/keys', { body: { scope: 'browser' } });

    expect(response.statusCode).toBe(201);
    const { key, key_id: keyId } = JSON.parse(response.body) as { key: string; key_id: string };
    expect(putsTo('keys')).toEqual([{ key_hash: hashApiKey(key), key_id: keyId, app_id: 'app_1', scope: 'browser', created_at: expect.any(String) }]);
    const [entry] = putsTo('audit');
    expect(entry).toMatchObject({
      app_id: 'app_1',
      actor: { user_id: 'usr_1', email: 'ada@example.com' },
      action: 'key.issued',
      target: `key:${keyId}`,
      details: { scope: 'browser' },
    });
    expect(JSON.stringify(dynamo.calls().map((c) => c.args[0].input))).not.toContain(key);
  });

  test('refuses a marketer with 403 and writes nothing', async () => {
    asUser('marketer');

    const response = await call('console-issue-key', 'POST', '/console/api/keys', { body: { scope: 'server' } });

    expect(response.statusCode).toBe(403);
    expect(dynamo).not.toHaveReceivedCommand(PutCommand);
  });

  test('refuses an unknown scope with 400', async () => {
    const response = await call('console-issue-key', 'POST', '/console/api/keys', { body: { scope: 'root' } });

    expect(response.statusCode).toBe(400);
    expect(dynamo).not.toHaveReceivedCommand(PutCommand);
  });
});

describe('revoking a key from the console', () => {
  test("looks the key id up within the session's application only: another application's is 404, unaudited", async () => {
    dynamo.on(QueryCommand).resolves({ Items: [] });

    const response = await call('console-revoke-key', 'POST', '/console/api/keys/key_theirs/revoke', { keyId: 'key_theirs' });

    expect(response.statusCode).toBe(404);
    expect(dynamo).toHaveReceivedCommandWith(QueryCommand, {
      TableName: 'keys',
      IndexName: 'by-app',
      ExpressionAttributeValues: { ':app': 'app_1', ':key': 'key_theirs' },
    });
    expect(dynamo).not.toHaveReceivedCommand(UpdateCommand);
    expect(dynamo).not.toHaveReceivedCommand(PutCommand);
  });

  test('marks the key revoked and audits key.revoked', async () => {
    dynamo
      .on(QueryCommand)
      .resolves({ Items: [{ key_hash: 'h1', key_id: 'key_1', app_id: 'app_1', scope: 'server', created_at: '2026-01-01T00:00:00.000Z' }] });
    dynamo.on(UpdateCommand, { TableName: 'keys' }).resolves({});

    const response = await call('console-revoke-key', 'POST', '/console/api/keys/key_1/revoke', { keyId: 'key_1' });

    expect(response.statusCode).toBe(200);
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, { TableName: 'keys', Key: { key_hash: 'h1' } });
    expect(putsTo('audit')).toEqual([expect.objectContaining({ action: 'key.revoked', target: 'key:key_1' })]);
  });

  test('without the CSRF token is 403 and revokes nothing', async () => {
    const response = await call('console-revoke-key', 'POST', '/console/api/keys/key_1/revoke', { keyId: 'key_1', csrf: false });

    expect(response.statusCode).toBe(403);
    expect(dynamo).not.toHaveReceivedCommand(QueryCommand);
  });
});

test('listing keys never answers a hash', async () => {
  dynamo
    .on(QueryCommand)
    .resolves({ Items: [{ key_hash: 'secret-hash', key_id: 'key_1', app_id: 'app_1', scope: 'server', created_at: '2026-01-01T00:00:00.000Z' }] });

  const response = await call('console-list-keys', 'GET', '/console/api/keys');

  expect(JSON.parse(response.body)).toEqual({ keys: [{ key_id: 'key_1', scope: 'server', created_at: '2026-01-01T00:00:00.000Z', revoked_at: null }] });
});

describe('secrets from the console', () => {
  test('a rotated identity secret is written to its own SSM parameter and answered, and the audit entry does not carry it', async () => {
    const response = await call('console-rotate-identity-secret', 'POST', '/console/api/identity_secret');

    expect(response.statusCode).toBe(200);
    const secret = JSON.parse(response.body).identity_secret as string;
    expect(ssm).toHaveReceivedCommandWith(PutParameterCommand, { Name: '/urm/test/apps/app_1/identity-secret', Value: secret, Type: 'SecureString' });
    expect(putsTo('audit')).toEqual([expect.objectContaining({ action: 'identity_secret.rotated', target: 'app:app_1' })]);
    expect(JSON.stringify(putsTo('audit'))).not.toContain(secret);
  });

  test('generated VAPID keys: the private key goes to SSM only, never into the answer or the audit entry', async () => {
    const response = await call('console-generate-vapid', 'POST', '/console/api/vapid', { body: { subject: 'mailto:push@example.com' } });

    expect(response.statusCode).toBe(200);
    const privateKey = ssm.commandCalls(PutParameterCommand)[0]!.args[0].input.Value!;
    expect(ssm).toHaveReceivedCommandWith(PutParameterCommand, { Name: '/urm/test/apps/app_1/vapid-private-key' });
    expect(JSON.parse(response.body)).toEqual({ vapid_public_key: expect.any(String), vapid_subject: 'mailto:push@example.com' });
    expect(response.body).not.toContain(privateKey);
    expect(putsTo('audit')).toEqual([
      expect.objectContaining({
        action: 'vapid.generated',
        details: { public_key: JSON.parse(response.body).vapid_public_key, subject: 'mailto:push@example.com' },
      }),
    ]);
    expect(JSON.stringify(putsTo('audit'))).not.toContain(privateKey);
  });
});
