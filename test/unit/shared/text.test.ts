/**
 * Bad text is refused, not stored (docs/api.md, "Validation" and "Security:
 * key checks, body bounds, logs"): a body that is not valid UTF-8, and an
 * identifier or event name holding a control character or an unpaired
 * surrogate, are 400s naming the problem; a body over the operation's bound
 * is a 413 naming the bound.
 */
import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { KinesisClient, PutRecordsCommand } from '@aws-sdk/client-kinesis';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { hashApiKey } from '../../../functions/domain/api-keys';
import { profileIdOf } from '../../../functions/domain/profile-id';
import { compileValidator } from '../../../functions/domain/validation';
import { signInBodySchema } from '../../../functions/api/enterprise-sign-in/schema';
import { sendEmailSchema } from '../../../functions/api/send-email/schema';
import { setAffiliateSchema } from '../../../functions/api/set-affiliate/schema';
import { acceptedPutRecords, apiEvent, context, type ProxyHandler, setFunctionEnv } from '../../support/lambda';

setFunctionEnv({ KEYS_TABLE: 'keys', APPS_TABLE: 'apps', STREAM_NAME: 'stream', SECRETS_PREFIX: '/urm/test' });

const kinesis = mockClient(KinesisClient);
const dynamo = mockClient(DynamoDBDocumentClient);
const serverKey = { key_hash: hashApiKey('server-key'), app_id: 'app_1', scope: 'server', key_id: 'k1' };

let events: ProxyHandler;
let profiles: ProxyHandler;
beforeAll(async () => {
  events = (await import('../../../functions/api/ingest-events/handler')).handler as unknown as ProxyHandler;
  profiles = (await import('../../../functions/api/ingest-profiles/handler')).handler as unknown as ProxyHandler;
});

beforeEach(() => {
  kinesis.reset();
  dynamo.reset();
  dynamo.on(GetCommand).callsFake((input: { Key: { key_hash: string } }) => ({ Item: input.Key.key_hash === serverKey.key_hash ? serverKey : undefined }));
  kinesis.on(PutRecordsCommand).callsFake(acceptedPutRecords);
});

const post = (handler: ProxyHandler, body: string | Buffer, key = 'server-key') =>
  handler(apiEvent({ path: '/events', headers: { 'Content-Type': 'application/json', 'X-Api-Key': key }, body }), context());
const sent = () => kinesis.commandCalls(PutRecordsCommand);
const at = '2026-11-21T10:00:00Z';
const record = { app_id: 'app_1', profile_id: 'player-1', event: 'deposit', urm_date_time: at };

describe('a body that is not valid UTF-8', () => {
  test('an invalid byte inside a string is a 400, and nothing reaches the stream', async () => {
    const body = Buffer.concat([
      Buffer.from('[{"app_id":"app_1","profile_id":"player-1","urm_date_time":"2026-11-21T10:00:00Z","city":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}]'),
    ]);

    const response = await post(profiles, body);

    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ message: 'request body is invalid', errors: ['request body must be valid UTF-8'] });
    expect(sent().length).toBe(0);
  });

  test.each([
    ['a surrogate encoded in UTF-8 (CESU-8)', [0xed, 0xa0, 0x80]],
    ['an overlong encoding of "/"', [0xc0, 0xaf]],
    ['a sequence cut short', [0xe2, 0x82]],
  ])('%s is refused', async (_name, bytes) => {
    const body = Buffer.concat([Buffer.from(`[${JSON.stringify(record).slice(0, -1)},"note":"`), Buffer.from(bytes), Buffer.from('"}]')]);

    const response = await post(events, body);

    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).errors).toEqual(['request body must be valid UTF-8']);
  });

  test('valid UTF-8, astral characters and a written U+FFFD included, is taken as sent', async () => {
    const response = await post(events, Buffer.from(JSON.stringify([{ ...record, note: 'café 😀 \uFFFD' }])));

    expect(response.statusCode).toBe(200);
    const data = JSON.parse(Buffer.from(sent()[0].args[0].input.Records![0].Data!).toString('utf8'));
    expect(data.record.note).toBe('café 😀 \uFFFD');
  });

  test('with an unknown key it is the plain 403: the key comes first', async () => {
    const response = await post(events, Buffer.from([0x5b, 0xff, 0x5d]), `urm_server_${'A'.repeat(43)}`);

    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body)).toEqual({ message: 'Forbidden' });
  });
});

describe('identifiers and event names hold no control character or unpaired surrogate', () => {
  const refusal = (field: string) => `${field} must not contain control characters, bidi controls, invisible characters or unpaired surrogates`;

  test.each([
    ['a NUL in profile_id', { profile_id: 'player\u0000-1' }, '[0].profile_id'],
    ['a newline in app_id', { app_id: 'app_1\n' }, '[0].app_id'],
    ['DEL in urm_insert_id', { urm_insert_id: 'id\u007f' }, '[0].urm_insert_id'],
    ['an unpaired high surrogate in event', { event: 'deposit\uD83D' }, '[0].event'],
    ['an unpaired low surrogate in event', { event: '\uDE00deposit' }, '[0].event'],
    ['a unit separator in event', { event: 'a\u001fb' }, '[0].event'],
  ])('POST /events: %s is a 400 naming the field', async (_name, change, field) => {
    const response = await post(events, JSON.stringify([{ ...record, ...change }]));

    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).errors).toContain(refusal(field));
    expect(sent().length).toBe(0);
  });

  test('POST /profiles: a control character in a merge source is a 400 naming it', async () => {
    const response = await post(profiles, JSON.stringify([{ app_id: 'app_1', profile_id: 'player-1', urm_date_time: at, urm_merge: ['guest\u0000'] }]));

    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).errors).toContain(refusal('[0].urm_merge[0]'));
  });

  test('identifiers stay opaque: any other character, astral and unnormalised ones included, is taken as sent', async () => {
    const decomposed = 'cafe\u0301 😀 \u00a0 שלום';
    const response = await post(events, JSON.stringify([{ ...record, profile_id: decomposed, event: decomposed, urm_insert_id: decomposed }]));

    expect(response.statusCode).toBe(200);
    const data = JSON.parse(Buffer.from(sent()[0].args[0].input.Records![0].Data!).toString('utf8'));
    expect([data.record.profile_id, data.record.event, data.record.urm_insert_id]).toEqual([decomposed, decomposed, decomposed]);
  });

  test.each([
    ['set_affiliate urm_aff_id', setAffiliateSchema, { app_id: 'app_1', profile_id: 'p', urm_aff_id: 'aff\u0000' }, 'urm_aff_id'],
    [
      'send_email channel_id',
      sendEmailSchema,
      { app_id: 'app_1', channel_id: 'ch\r\n', profile_id: 'p', to_addresses: [{ email: 'ada@example.com', name: 'Ada' }], subject: 's', text_body: 't' },
      'channel_id',
    ],
    ['sign_in user_id', signInBodySchema, { app_id: 'app_1', user_id: 'usr\uD800' }, 'user_id'],
  ])('%s is checked the same way', (_name, schema, body, field) => {
    const validate = compileValidator(schema);

    expect(() => validate(body)).toThrow(expect.objectContaining({ errors: [refusal(field)] }) as unknown as Error);
  });
});

test("a read path's profile_id is checked the same way", () => {
  expect(() => profileIdOf({ profile_id: 'player\u00001' })).toThrow(
    expect.objectContaining({
      errors: ['profile_id must not contain control characters, bidi controls, invisible characters or unpaired surrogates'],
    }) as unknown as Error,
  );
  expect(profileIdOf({ profile_id: 'cafe\u0301 😀' })).toBe('cafe\u0301 😀');
});

describe('a body over the bound', () => {
  test('is a 413 {"message"} naming the bound, before it is parsed', async () => {
    const response = await post(events, `[${' '.repeat(4 * 1024 * 1024)}]`);

    expect(response.statusCode).toBe(413);
    expect(JSON.parse(response.body)).toEqual({ message: 'request body must be at most 4 MiB' });
  });
});
