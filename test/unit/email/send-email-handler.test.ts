import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { KinesisClient, PutRecordsCommand, type PutRecordsCommandInput } from '@aws-sdk/client-kinesis';
import { MessageRejected, SendEmailCommand, SESv2Client, type SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient, GetCommand, type GetCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { Channel } from '../../../functions/domain/channels';
import { apiEvent, context, keysByHash, type ProxyHandler, setFunctionEnv } from '../../support/lambda';

setFunctionEnv({ KEYS_TABLE: 'keys', CHANNELS_TABLE: 'channels', STREAM_NAME: 'stream', SES_CONFIGURATION_SET: 'urm-sending' });

type Handler = ProxyHandler;
const ses = mockClient(SESv2Client);
const kinesis = mockClient(KinesisClient);
const dynamo = mockClient(DynamoDBDocumentClient);

const keys: Record<string, object> = {
  'comms-key': { app_id: 'app_1', scope: 'comms', key_id: 'k1' },
  'server-key': { app_id: 'app_1', scope: 'server', key_id: 'k2' },
  'browser-key': { app_id: 'app_1', scope: 'browser', key_id: 'k3' },
  'revoked-comms-key': { app_id: 'app_1', scope: 'comms', key_id: 'k4', revoked_at: '2026-01-01T00:00:00Z' },
};
const byHash = keysByHash(keys);

const channel = (fields: Partial<Channel> = {}): Channel => ({
  app_id: 'app_1',
  channel_id: 'ch_news',
  name: 'News',
  from_email: 'news@example.com',
  from_name: 'Casino News',
  enabled: true,
  created_at: '2026-11-01T00:00:00.000Z',
  ...fields,
});
let channels: Channel[];

let handler: Handler;
beforeAll(async () => {
  handler = (await import('../../../functions/api/send-email/handler')).handler as unknown as Handler;
});

beforeEach(() => {
  ses.reset();
  kinesis.reset();
  dynamo.reset();
  channels = [channel(), channel({ channel_id: 'ch_off', enabled: false }), channel({ app_id: 'app_2', channel_id: 'ch_other' })];
  dynamo.on(GetCommand).callsFake((input: GetCommandInput) => {
    if (input.TableName === 'keys') return { Item: byHash.get(input.Key!.key_hash as string) };
    if (input.TableName === 'channels') {
      return { Item: channels.find((c) => c.app_id === input.Key!.app_id && c.channel_id === input.Key!.channel_id) };
    }
    throw new Error(`unexpected table ${input.TableName}`);
  });
  ses.on(SendEmailCommand).resolves({ MessageId: '0100019a4b2c3d4e-5f6a7b8c-0000-0000-0000-000000000000-000000' });
  kinesis.on(PutRecordsCommand).callsFake((input: PutRecordsCommandInput) => ({
    FailedRecordCount: 0,
    Records: input.Records!.map(() => ({ SequenceNumber: '49680', ShardId: 'shardId-000000000001' })),
  }));
});

const valid = {
  app_id: 'app_1',
  channel_id: 'ch_news',
  profile_id: 'player-1',
  to_addresses: [
    { email: 'ann@example.com', name: 'Ann Lee' },
    { email: 'zoe@example.com', name: 'Zoë Ørsted' },
  ],
  reply_to: 'help@example.com',
  reply_to_name: 'Help desk',
  subject: 'Your weekly bonus',
  html_body: '<p>Your bonus is <b>ready</b>.</p>',
  text_body: 'Your bonus is ready.',
};

const post = (body: unknown, key: string | null = 'comms-key') =>
  handler(
    apiEvent({
      path: '/api/send_email',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...(key ? { 'x-api-key': key } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
    context('SendEmailFunction'),
  );
const mailsSent = () => ses.commandCalls(SendEmailCommand).map((call) => call.args[0].input as SendEmailCommandInput);
const streamWrites = () => kinesis.commandCalls(PutRecordsCommand).map((call) => call.args[0].input as PutRecordsCommandInput);

describe('POST /api/send_email handler', () => {
  test('sends one SendEmail with every address named, UTF-8 content and the configuration set, and answers its message id', async () => {
    const response = await post(valid);

    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ message_id: '0100019a4b2c3d4e-5f6a7b8c-0000-0000-0000-000000000000-000000' });
    expect(mailsSent()).toEqual([
      {
        FromEmailAddress: '"Casino News" <news@example.com>',
        Destination: { ToAddresses: ['"Ann Lee" <ann@example.com>', '=?UTF-8?B?Wm/DqyDDmHJzdGVk?= <zoe@example.com>'] },
        ReplyToAddresses: ['"Help desk" <help@example.com>'],
        Content: {
          Simple: {
            Subject: { Data: 'Your weekly bonus', Charset: 'UTF-8' },
            Body: {
              Html: { Data: '<p>Your bonus is <b>ready</b>.</p>', Charset: 'UTF-8' },
              Text: { Data: 'Your bonus is ready.', Charset: 'UTF-8' },
            },
          },
        },
        EmailTags: [
          { Name: 'app_id', Value: 'app_1' },
          { Name: 'channel_id', Value: 'ch_news' },
        ],
        ConfigurationSetName: 'urm-sending',
      },
    ]);
  });

  test('uses the from_email and from_name of the request over the channel defaults, and sends a text-only mail without Html', async () => {
    channels.push(channel({ channel_id: 'ch_domain', from_domain: 'example.com' }));
    const { html_body: _html, reply_to: _reply, reply_to_name: _name, ...rest } = { ...valid, channel_id: 'ch_domain' };

    const response = await post({ ...rest, from_email: 'vip@example.com', from_name: 'VIP "Gold" desk' });

    expect(response.statusCode).toBe(200);
    const [input] = mailsSent();
    expect(input.FromEmailAddress).toBe('"VIP \\"Gold\\" desk" <vip@example.com>');
    expect(input.ReplyToAddresses).toBe(undefined);
    expect(input.Content!.Simple!.Body).toEqual({ Text: { Data: 'Your bonus is ready.', Charset: 'UTF-8' } });
  });

  test('writes the urm_email_sent event to the stream with ids and subject only', async () => {
    await post(valid);

    const writes = streamWrites();
    expect(writes.length).toBe(1);
    expect(writes[0].StreamName).toBe('stream');
    expect(writes[0].Records!.length).toBe(1);
    const [record] = writes[0].Records!;
    expect(record.PartitionKey).toBe('app_1#player-1');
    const data = Buffer.from(record.Data!).toString('utf8');
    const envelope = JSON.parse(data);
    expect(envelope.kind).toBe('event');
    const { urm_date_time: at, ...rest } = envelope.record;
    expect(Math.abs(Date.parse(at) - Date.now()) < 60_000).toBeTruthy();
    expect(rest).toEqual({
      app_id: 'app_1',
      profile_id: 'player-1',
      event: 'urm_email_sent',
      urm_insert_id: 'urm-email-0100019a4b2c3d4e-5f6a7b8c-0000-0000-0000-000000000000-000000',
      message_id: '0100019a4b2c3d4e-5f6a7b8c-0000-0000-0000-000000000000-000000',
      channel_id: 'ch_news',
      subject: 'Your weekly bonus',
    });
    for (const secret of ['ann@example.com', 'help@example.com', 'ready']) expect(!data.includes(secret)).toBeTruthy();
  });

  for (const [name, key] of [
    ['without a key', null],
    ['with the server key', 'server-key'],
    ['with a browser key', 'browser-key'],
    ['with a revoked comms key', 'revoked-comms-key'],
    ['with an unknown key', 'nope'],
  ] as const) {
    test(`answers 403 Forbidden ${name}, and sends nothing`, async () => {
      const response = await post(valid, key);

      expect(response.statusCode).toBe(403);
      expect(JSON.parse(response.body)).toEqual({ message: 'Forbidden' });
      expect(mailsSent().length).toBe(0);
      expect(streamWrites().length).toBe(0);
    });
  }

  test("answers 403 for another application's app_id, and sends nothing", async () => {
    const response = await post({ ...valid, app_id: 'app_2', channel_id: 'ch_other' });

    expect(response.statusCode).toBe(403);
    expect(mailsSent().length).toBe(0);
  });

  for (const [name, channelId] of [
    ['an unknown channel', 'ch_missing'],
    ['a disabled channel', 'ch_off'],
    ["another application's channel", 'ch_other'],
  ] as const) {
    test(`answers 404 channel not found for ${name}, and sends nothing`, async () => {
      const response = await post({ ...valid, channel_id: channelId });

      expect(response.statusCode).toBe(404);
      expect(JSON.parse(response.body)).toEqual({ message: 'channel not found' });
      expect(mailsSent().length).toBe(0);
      expect(streamWrites().length).toBe(0);
    });
  }

  const invalid: [string, Record<string, unknown>, string[]][] = [
    ['a CR/LF in the subject', { subject: 'Hi\r\nBcc: everyone@example.com' }, ['subject must be free of line breaks and control characters']],
    [
      'a LF in a recipient name',
      { to_addresses: [{ email: 'ann@example.com', name: 'Ann\nBcc: x@example.com' }] },
      ['to_addresses[0].name must be free of line breaks and control characters'],
    ],
    ['a CR in from_name', { from_name: 'News\rBcc: x@example.com' }, ['from_name must be free of line breaks and control characters']],
    [
      'a line separator in reply_to_name',
      { reply_to_name: 'Help\u2028Bcc: x@example.com' },
      ['reply_to_name must be free of line breaks and control characters'],
    ],
    ['a header smuggled into an address', { reply_to: 'help@example.com\r\nBcc: x@example.com' }, ['reply_to must be a valid email address']],
    ['an address with a display name of its own', { from_email: 'Evil <evil@example.com>' }, ['from_email must be a valid email address']],
    ['no recipient', { to_addresses: [] }, ['to_addresses must hold at least 1 item']],
    [
      '51 recipients',
      { to_addresses: Array.from({ length: 51 }, (_, i) => ({ email: `p${i}@example.com`, name: `P ${i}` })) },
      ['to_addresses must hold at most 50 items'],
    ],
    ['a recipient without a name', { to_addresses: [{ email: 'ann@example.com' }] }, ['to_addresses[0].name is required']],
    ['a name over 100 characters', { from_name: 'x'.repeat(101) }, ['from_name must be at most 100 characters']],
    ['a subject over 998 characters', { subject: 's'.repeat(999) }, ['subject must be at most 998 characters']],
    ['an empty subject', { subject: '' }, ['subject must not be empty']],
    ['an unknown field', { cc_addresses: ['x@example.com'] }, ['cc_addresses is not allowed']],
    ['no body', { html_body: undefined, text_body: undefined }, ['html_body or text_body is required']],
    ['a text body over 256 KiB', { text_body: 'x'.repeat(256 * 1024 + 1) }, ['text_body must be at most 256 KiB (UTF-8)']],
    ['reply_to_name without reply_to', { reply_to: undefined }, ['reply_to_name needs reply_to']],
  ];
  for (const [name, change, errors] of invalid) {
    test(`answers 400 for ${name}, and sends nothing`, async () => {
      const response = await post({ ...valid, ...change });

      expect(response.statusCode).toBe(400);
      expect(JSON.parse(response.body)).toEqual({ message: 'request body is invalid', errors });
      expect(mailsSent().length).toBe(0);
      expect(streamWrites().length).toBe(0);
    });
  }

  test("answers 400 naming from_email for a sender that is not the channel's, and sends nothing", async () => {
    const response = await post({ ...valid, from_email: 'security@bank.example' });

    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      message: 'request body is invalid',
      errors: ["from_email must be the channel's address (news@example.com)"],
    });
    expect(mailsSent().length).toBe(0);
    expect(streamWrites().length).toBe(0);
  });

  test("leaves reply_to free: any address may be the reply-to of the channel's sender", async () => {
    const response = await post({ ...valid, reply_to: 'support@elsewhere.example' });

    expect(response.statusCode).toBe(200);
    expect(mailsSent()[0].ReplyToAddresses).toEqual(['"Help desk" <support@elsewhere.example>']);
  });

  test('answers 400 naming every missing field of an empty object', async () => {
    const response = await post({});

    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).errors).toEqual([
      'app_id is required',
      'channel_id is required',
      'profile_id is required',
      'to_addresses is required',
      'subject is required',
    ]);
  });

  test('answers 400 when SES refuses the message (an unverified sender), and records no event', async () => {
    ses.on(SendEmailCommand).rejects(new MessageRejected({ message: 'Email address is not verified.', $metadata: {} }));

    const response = await post(valid);

    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      message: 'the mail service refused the message',
      errors: ['from_email must be a verified sender (and, while the SES account is in the sandbox, every recipient too)'],
    });
    expect(streamWrites().length).toBe(0);
  });

  test('answers 500 without internals when SES fails otherwise, and records no event', async () => {
    ses.on(SendEmailCommand).rejects(new Error('AccessDeniedException: arn:aws:iam::123:role/secret'));

    const response = await post(valid);

    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({ message: 'internal server error' });
    expect(streamWrites().length).toBe(0);
  });

  test('answers 200 with the message id when the mail went out but the stream is unreachable: a retry would send it twice', async () => {
    kinesis.on(PutRecordsCommand).rejects(new Error('stream unreachable'));

    const response = await post(valid);

    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body).message_id).toBe('0100019a4b2c3d4e-5f6a7b8c-0000-0000-0000-000000000000-000000');
    expect(mailsSent().length).toBe(1);
  });
});
