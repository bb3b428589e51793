import { createECDH, randomBytes } from 'node:crypto';
import { beforeEach, describe, expect, test } from '@jest/globals';
import { GetParameterCommand, ParameterNotFound, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { mockClient } from 'aws-sdk-client-mock';
import webpush from 'web-push';
import { SsmSecretStore } from '../../../functions/adapters/ssm-secret-store';
import { AppVapidKeyring } from '../../../functions/adapters/vapid-keyring';
import { WebPushSender } from '../../../functions/adapters/web-push-sender';
import type { App } from '../../../functions/domain/apps';
import { pushEndpointPolicy } from '../../../functions/domain/push';
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDeliveryClaims } from '../../../functions/adapters/dynamo-delivery-claims';

const ssm = mockClient(SSMClient);

describe('the SSM secret store', () => {
  beforeEach(() => void ssm.reset());

  test('reads a SecureString decrypted, under the stack path', async () => {
    ssm.on(GetParameterCommand).resolves({ Parameter: { Value: 'the-private-key' } });

    const value = await new SsmSecretStore(new SSMClient({ region: 'eu-west-1' }), '/urm/Urm').get('apps/app_1/vapid-private-key');

    expect(value).toBe('the-private-key');
    expect(ssm.commandCalls(GetParameterCommand)[0].args[0].input).toEqual({ Name: '/urm/Urm/apps/app_1/vapid-private-key', WithDecryption: true });
  });

  test('answers undefined for a parameter that does not exist', async () => {
    ssm.on(GetParameterCommand).rejects(new ParameterNotFound({ message: 'not found', $metadata: {} }));

    expect(await new SsmSecretStore(new SSMClient({ region: 'eu-west-1' }), '/urm/Urm').get('missing')).toBe(undefined);
  });

  test('writes a SecureString, replacing the one before', async () => {
    ssm.on(PutParameterCommand).resolves({ Version: 2 });

    await new SsmSecretStore(new SSMClient({ region: 'eu-west-1' }), '/urm/Urm/').put('apps/app_1/vapid-private-key', 'k');

    expect(ssm.commandCalls(PutParameterCommand)[0].args[0].input).toEqual({
      Name: '/urm/Urm/apps/app_1/vapid-private-key',
      Value: 'k',
      Type: 'SecureString',
      Overwrite: true,
    });
  });
});

describe('the delivery claims', () => {
  const dynamo = mockClient(DynamoDBDocumentClient);
  const claims = () =>
    new DynamoDeliveryClaims(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1' })), 'deliveries', () => new Date('2026-11-21T10:00:00Z'));
  beforeEach(() => void dynamo.reset());

  test('claim a delivery with a put that only succeeds when no call claimed it before, kept 48 hours', async () => {
    dynamo.on(PutCommand).resolves({});

    expect(await claims().claim('app_1', 'n-1', 'sub-hash')).toBe(true);
    expect(dynamo).toHaveReceivedCommandWith(PutCommand, {
      TableName: 'deliveries',
      Item: { pk: 'app_1#n-1', subscription: 'sub-hash', claimed_at: '2026-11-21T10:00:00.000Z', expires_at: Date.parse('2026-11-23T10:00:00Z') / 1000 },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  });

  test('say so when an earlier call claimed it, and pass other errors on', async () => {
    dynamo
      .on(PutCommand)
      .rejectsOnce(new ConditionalCheckFailedException({ message: 'exists', $metadata: {} }))
      .rejectsOnce(new Error('throttled'));

    expect(await claims().claim('app_1', 'n-1', 'sub-hash')).toBe(false);
    await expect(claims().claim('app_1', 'n-1', 'sub-hash')).rejects.toThrow('throttled');
  });

  test('release a delivery by deleting its claim', async () => {
    dynamo.on(DeleteCommand).resolves({});

    await claims().release('app_1', 'n-1', 'sub-hash');

    expect(dynamo).toHaveReceivedCommandWith(DeleteCommand, { TableName: 'deliveries', Key: { pk: 'app_1#n-1', subscription: 'sub-hash' } });
  });
});

describe('the VAPID keyring', () => {
  const app: App = { app_id: 'app_1', name: 'a', created_at: '', vapid_public_key: 'BPub', vapid_subject: 'mailto:ops@example.com' };

  test('joins the public key and subject of the application with the private key of the secret store, and keeps them a while', async () => {
    let reads = 0;
    let clock = 0;
    const keyring = new AppVapidKeyring(
      { get: async () => app },
      {
        get: async (name) => {
          reads++;
          return name === 'apps/app_1/vapid-private-key' ? 'priv' : undefined;
        },
      },
      { ttlMs: 1000, maxEntries: 10, now: () => clock },
    );

    const first = await keyring.forApp('app_1');
    await keyring.forApp('app_1');
    clock = 1001;
    await keyring.forApp('app_1');

    expect(first).toEqual({ subject: 'mailto:ops@example.com', publicKey: 'BPub', privateKey: 'priv' });
    expect(reads).toBe(2);
  });

  test('has nothing for an application without keys, and fails loudly when the private key is missing', async () => {
    expect(await new AppVapidKeyring({ get: async () => ({ ...app, vapid_public_key: undefined }) }, { get: async () => 'x' }).forApp('app_1')).toBe(undefined);
    await expect(new AppVapidKeyring({ get: async () => app }, { get: async () => undefined }).forApp('app_1')).rejects.toThrow(
      /private key of app_1 is missing/,
    );
  });
});

describe('the web-push sender', () => {
  const vapid = { subject: 'mailto:ops@example.com', ...webpush.generateVAPIDKeys() };
  const browser = createECDH('prime256v1');
  browser.generateKeys();
  const subscription = (endpoint: string) => ({
    endpoint,
    keys: { p256dh: browser.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  });

  function fakeFetch(status: number) {
    const calls: { url: string; init: RequestInit }[] = [];
    const fetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(null, { status });
    }) as unknown as typeof globalThis.fetch;
    return { calls, fetch };
  }

  test('posts an aes128gcm message with TTL, Urgency and a VAPID authorization', async () => {
    const { calls, fetch } = fakeFetch(201);
    const sender = new WebPushSender({ endpoints: pushEndpointPolicy(''), timeoutMs: 1000, fetch });

    const outcome = await sender.send(subscription('https://fcm.googleapis.com/fcm/send/x'), '{"title":"hi"}', { ttl: 60, urgency: 'high', vapid });

    expect(outcome).toEqual({ status: 'sent' });
    const headers = calls[0].init.headers as Record<string, string>;
    expect(calls[0].url).toBe('https://fcm.googleapis.com/fcm/send/x');
    expect(headers.TTL).toBe('60');
    expect(headers.Urgency).toBe('high');
    expect(headers['Content-Encoding']).toBe('aes128gcm');
    expect(headers.Authorization).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${vapid.publicKey}$`));
    expect(calls[0].init.redirect).toBe('error');
    expect((calls[0].init.body as Uint8Array).byteLength > '{"title":"hi"}'.length).toBeTruthy();
  });

  for (const status of [404, 410]) {
    test(`reports a subscription the push service answers ${status} as gone`, async () => {
      const sender = new WebPushSender({ endpoints: pushEndpointPolicy(''), timeoutMs: 1000, fetch: fakeFetch(status).fetch });

      expect(await sender.send(subscription('https://fcm.googleapis.com/fcm/send/x'), '{}', { ttl: 0, urgency: 'normal', vapid })).toEqual({ status: 'gone' });
    });
  }

  test('reports another answer, and no answer, as failed', async () => {
    const failing = new WebPushSender({ endpoints: pushEndpointPolicy(''), timeoutMs: 1000, fetch: fakeFetch(503).fetch });
    const unreachable = new WebPushSender({
      endpoints: pushEndpointPolicy(''),
      timeoutMs: 1000,
      fetch: (async () => {
        throw new TypeError('fetch failed');
      }) as unknown as typeof fetch,
    });

    expect(await failing.send(subscription('https://fcm.googleapis.com/fcm/send/x'), '{}', { ttl: 0, urgency: 'normal', vapid })).toEqual({
      status: 'failed',
      reason: 'the push service answered 503',
    });
    expect(await unreachable.send(subscription('https://fcm.googleapis.com/fcm/send/x'), '{}', { ttl: 0, urgency: 'normal', vapid })).toEqual({
      status: 'failed',
      reason: 'the push service could not be reached: TypeError',
    });
  });

  test('gives up on a push service at the timeout of the send, whatever its own default', async () => {
    const hanging = (async (_url: string, init: RequestInit) =>
      new Promise((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)))) as unknown as typeof fetch;
    const sender = new WebPushSender({ endpoints: pushEndpointPolicy(''), timeoutMs: 60_000, fetch: hanging });
    const started = Date.now();

    const outcome = await sender.send(subscription('https://fcm.googleapis.com/fcm/send/x'), '{}', { ttl: 0, urgency: 'normal', vapid, timeoutMs: 50 });

    expect(outcome).toMatchObject({ status: 'failed', reason: 'the push service could not be reached: TimeoutError' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('never calls an endpoint the policy refuses', async () => {
    const { calls, fetch } = fakeFetch(201);
    const sender = new WebPushSender({ endpoints: pushEndpointPolicy(''), timeoutMs: 1000, fetch });

    const outcome = await sender.send(subscription('http://127.0.0.1:9001/2018-06-01/runtime/invocation/next'), '{}', { ttl: 0, urgency: 'normal', vapid });

    expect(outcome).toEqual({ status: 'failed', reason: 'the endpoint host is not a push service' });
    expect(calls.length).toBe(0);
  });
});
