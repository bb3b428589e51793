import { beforeAll, beforeEach, describe, expect, jest, test } from '@jest/globals';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { KinesisClient, PutRecordsCommand, type PutRecordsCommandInput } from '@aws-sdk/client-kinesis';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { backoffTimer } from '../../../functions/adapters/retry';
import { acceptedPutRecords, apiEvent, context, keysByHash, type ProxyHandler, setFunctionEnv } from '../../support/lambda';
import { attribution, registration } from '../../support/affiliates';

setFunctionEnv({ KEYS_TABLE: 'keys', APPS_TABLE: 'apps', AFFILIATES_TABLE: 'affiliates', STREAM_NAME: 'stream' });

type Handler = ProxyHandler;
const kinesis = mockClient(KinesisClient);
const dynamo = mockClient(DynamoDBDocumentClient);

const keys: Record<string, object> = {
  'server-key': { app_id: 'app_1', scope: 'server', key_id: 'k1' },
  'comms-key': { app_id: 'app_1', scope: 'comms', key_id: 'k2' },
};
const byHash = keysByHash(keys);
const apps = new Map([['app_1', { app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z', portal_origin: 'https://portal.example.com' }]]);

let setAffiliate: Handler;
let registerAffiliate: Handler;
beforeAll(async () => {
  // The handler's adapters back off by the default timer: no real waiting in a unit test.
  jest.spyOn(backoffTimer, 'sleep').mockImplementation(async () => {});
  setAffiliate = (await import('../../../functions/api/set-affiliate/handler')).handler as unknown as Handler;
  registerAffiliate = (await import('../../../functions/api/register-affiliate/handler')).handler as unknown as Handler;
});

beforeEach(() => {
  kinesis.reset();
  dynamo.reset();
  dynamo
    .on(GetCommand)
    .callsFake((input: { TableName: string; Key: Record<string, string> }) =>
      input.TableName === 'keys' ? { Item: byHash.get(input.Key.key_hash) } : { Item: apps.get(input.Key.app_id) },
    );
  dynamo.on(TransactWriteCommand).resolves({});
  kinesis.on(PutRecordsCommand).callsFake(acceptedPutRecords);
});

const post = (handler: Handler, path: string, body: unknown, key: string | null = 'server-key') =>
  handler(
    apiEvent({
      path,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', Host: 'api.example.com', ...(key ? { 'X-Api-Key': key } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
    context(),
  );
const answer = (response: APIGatewayProxyResult) => ({ status: response.statusCode, body: JSON.parse(response.body) });
const transactions = () => dynamo.commandCalls(TransactWriteCommand).map((call) => call.args[0].input as TransactWriteCommandInput);
const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

describe('POST /api/set_affiliate handler', () => {
  test('puts the profile record and the event on the stream in one PutRecords and answers the message id', async () => {
    const response = answer(await post(setAffiliate, '/api/set_affiliate', attribution('app_1', 'player-1')));

    expect(response.status).toBe(200);
    expect(response.body.message).toBe('Affiliate set');
    expect(response.body.message_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const calls = kinesis.commandCalls(PutRecordsCommand);
    expect(calls.length).toBe(1);
    const envelopes = calls[0].args[0].input.Records!.map((r) => JSON.parse(Buffer.from(r.Data!).toString()));
    expect(envelopes.map((e) => [e.kind, e.record.urm_insert_id])).toEqual([
      ['profile', response.body.message_id],
      ['event', response.body.message_id],
    ]);
  });

  test('answers 500 without internals when the stream keeps refusing a record', async () => {
    kinesis.on(PutRecordsCommand).callsFake((input: PutRecordsCommandInput) => ({
      FailedRecordCount: 1,
      Records: input.Records!.map((_, i) =>
        i === input.Records!.length - 1
          ? { ErrorCode: 'InternalFailure', ErrorMessage: 'Internal service failure.' }
          : { SequenceNumber: '1', ShardId: 'shardId-000000000001' },
      ),
    }));

    const response = answer(await post(setAffiliate, '/api/set_affiliate', attribution('app_1')));

    expect(response).toEqual({ status: 500, body: { message: 'internal server error' } });
  });

  test('answers 400 with the message and every problem', async () => {
    const response = answer(await post(setAffiliate, '/api/set_affiliate', { app_id: 'app_1', profile_id: '', urm_aff: '' }));

    expect(response).toEqual({
      status: 400,
      body: { message: 'request body is invalid', errors: ['profile_id must not be empty', 'urm_aff must not be empty'] },
    });
    expect(kinesis).not.toHaveReceivedCommand(PutRecordsCommand);
  });

  for (const [name, key, body] of [
    ['without a key', null, attribution('app_1')],
    ['with a comms key', 'comms-key', attribution('app_1')],
    ["for another application's profile", 'server-key', attribution('app_2')],
  ] as const) {
    test(`answers 403 Forbidden ${name}`, async () => {
      const response = answer(await post(setAffiliate, '/api/set_affiliate', body, key));

      expect(response).toEqual({ status: 403, body: { message: 'Forbidden' } });
      expect(kinesis).not.toHaveReceivedCommand(PutRecordsCommand);
    });
  }
});

describe('POST /api/register_affiliate handler', () => {
  test('writes the affiliate and both claims in one transaction of conditional puts', async () => {
    const body = { ...registration('app_1'), email: ' Ada@Example.COM ', username: 'Ada' };

    const response = answer(await post(registerAffiliate, '/api/register_affiliate', body));

    expect(response.status).toBe(200);
    expect(response.body.login_url).toBe('https://portal.example.com/affiliates/app_1/login');
    expect(response.body.affiliate_id).toMatch(/^aff_[0-9a-f]{20}$/);
    const [transaction] = transactions();
    const puts = transaction.TransactItems!.map((item) => item.Put!);
    expect(puts.map((put) => [put.TableName, put.Item!.app_id, put.Item!.sk, put.ConditionExpression])).toEqual([
      ['affiliates', 'app_1', `affiliate#${response.body.affiliate_id}`, 'attribute_not_exists(sk)'],
      ['affiliates', 'app_1', 'email#ada@example.com', 'attribute_not_exists(sk)'],
      ['affiliates', 'app_1', 'username#ada', 'attribute_not_exists(sk)'],
    ]);
    expect(puts[0].Item!.email).toBe('Ada@Example.COM');
    expect(String(puts[0].Item!.password_hash)).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(!JSON.stringify(transaction).includes(String(body.password))).toBeTruthy();
  });

  for (const [reasons, errors] of [
    [['None', 'ConditionalCheckFailed', 'None'], ['email is invalid']],
    [['None', 'None', 'ConditionalCheckFailed'], ['username is invalid']],
    [
      ['None', 'ConditionalCheckFailed', 'ConditionalCheckFailed'],
      ['email is invalid', 'username is invalid'],
    ],
  ] as const) {
    test(`maps a transaction cancelled by ${reasons.join(', ')} to ${JSON.stringify(errors)}`, async () => {
      dynamo.on(TransactWriteCommand).rejects(cancelled(...reasons));

      const response = answer(await post(registerAffiliate, '/api/register_affiliate', registration('app_1')));

      expect(response).toEqual({ status: 400, body: { errors } });
    });
  }

  test('retries a transaction that collided with another in flight', async () => {
    dynamo
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled('None', 'TransactionConflict', 'None'))
      .resolves({});

    const response = answer(await post(registerAffiliate, '/api/register_affiliate', registration('app_1')));

    expect(response.status).toBe(200);
    expect(transactions().length).toBe(2);
  });

  test('answers 500 {"errors": ["internal server error"]} when the store fails', async () => {
    dynamo.on(TransactWriteCommand).rejects(new Error('socket hang up at 10.0.0.1'));

    const response = answer(await post(registerAffiliate, '/api/register_affiliate', registration('app_1')));

    expect(response).toEqual({ status: 500, body: { errors: ['internal server error'] } });
  });

  for (const [name, raw] of [
    ['not JSON', '{"app_id":'],
    ['an array', '[]'],
    ['a string', '"hello"'],
    ['empty', ''],
  ] as const) {
    test(`answers {"errors": ["body is invalid"]} for a body that is ${name}`, async () => {
      const response = answer(await post(registerAffiliate, '/api/register_affiliate', raw));

      expect(response).toEqual({ status: 400, body: { errors: ['body is invalid'] } });
      expect(transactions().length).toBe(0);
    });
  }

  for (const [name, key, body] of [
    ['without a key', null, registration('app_1')],
    ['with a comms key', 'comms-key', registration('app_1')],
    ["for another application's app_id", 'server-key', registration('app_2')],
  ] as const) {
    test(`answers 403 {"message": "Forbidden"} ${name}`, async () => {
      const response = answer(await post(registerAffiliate, '/api/register_affiliate', body, key));

      expect(response).toEqual({ status: 403, body: { message: 'Forbidden' } });
      expect(transactions().length).toBe(0);
    });
  }
});
