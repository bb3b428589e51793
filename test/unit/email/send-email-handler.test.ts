import { beforeEach, describe, expect, jest, test } from '@jest/globals';
import { makeSendEmailHandler } from '../../../functions/api/send-email/make-handler';
import type { Channel } from '../../../functions/domain/channels';
import { ValidationError } from '../../../functions/domain/errors';
import { MemoryMailer } from '../../support/messaging';
import { assignment, keyResolverOf, MemoryChannelStore, MemorySenderStore } from '../../support/settings';
import { apiEvent, asProxyHandler, context, type ProxyHandler } from '../../support/lambda';
import { MemoryStream } from '../../support/memory-stream';

/** What the in-memory mail service answers for the first message. */
const MESSAGE_ID = 'ses-1';

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

let channels: MemoryChannelStore;
let senders: MemorySenderStore;
let mailer: MemoryMailer;
let stream: MemoryStream;
let handler: ProxyHandler;
beforeEach(() => {
  channels = new MemoryChannelStore();
  channels.channels.push(channel(), channel({ channel_id: 'ch_off', enabled: false }), channel({ app_id: 'app_2', channel_id: 'ch_other' }));
  senders = new MemorySenderStore([assignment('app_1', 'example.com')]);
  mailer = new MemoryMailer();
  stream = new MemoryStream();
  handler = asProxyHandler(
    makeSendEmailHandler({
      keys: keyResolverOf({
        'comms-key': { app_id: 'app_1', scope: 'comms', key_id: 'k1' },
        'server-key': { app_id: 'app_1', scope: 'server', key_id: 'k2' },
        'browser-key': { app_id: 'app_1', scope: 'browser', key_id: 'k3' },
        'revoked-comms-key': { app_id: 'app_1', scope: 'comms', key_id: 'k4', revoked_at: '2026-01-01T00:00:00Z' },
      }),
      channels,
      senders,
      mailer,
      writer: stream,
      now: () => new Date(),
    }),
  );
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
const mailsSent = () => mailer.sent;
const streamWrites = () => stream.writes;

describe('POST /api/send_email handler', () => {
  test('sends one mail with every address named, in UTF-8, tagged with the application, channel and profile, and answers its message id', async () => {
    const response = await post(valid);

    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ message_id: MESSAGE_ID });
    expect(mailsSent()).toEqual([
      {
        from: '"Casino News" <news@example.com>',
        to: ['"Ann Lee" <ann@example.com>', '=?UTF-8?B?Wm/DqyDDmHJzdGVk?= <zoe@example.com>'],
        replyTo: ['"Help desk" <help@example.com>'],
        subject: 'Your weekly bonus',
        html: '<p>Your bonus is <b>ready</b>.</p>',
        text: 'Your bonus is ready.',
        tags: { app_id: 'app_1', channel_id: 'ch_news', profile: 'cGxheWVyLTE' },
      },
    ]);
  });

  test('uses the from_email and from_name of the request over the channel defaults, and sends a text-only mail without Html', async () => {
    channels.channels.push(channel({ channel_id: 'ch_domain', from_domain: 'example.com' }));
    const { html_body: _html, reply_to: _reply, reply_to_name: _name, ...rest } = { ...valid, channel_id: 'ch_domain' };

    const response = await post({ ...rest, from_email: 'vip@example.com', from_name: 'VIP "Gold" desk' });

    expect(response.statusCode).toBe(200);
    const [mail] = mailsSent();
    expect(mail.from).toBe('"VIP \\"Gold\\" desk" <vip@example.com>');
    expect(mail.replyTo).toEqual([]);
    expect([mail.html, mail.text]).toEqual([undefined, 'Your bonus is ready.']);
  });

  test('writes the urm_email_sent event to the stream with ids and subject only', async () => {
    await post(valid);

    expect(streamWrites()).toHaveLength(1);
    expect(stream.entries().map((entry) => entry.partitionKey)).toEqual(['app_1#player-1']);
    const data = Buffer.from(stream.entries()[0].data).toString('utf8');
    const [envelope] = stream.envelopes();
    expect(envelope.kind).toBe('event');
    const { urm_date_time: at, ...rest } = envelope.record;
    expect(Math.abs(Date.parse(at as string) - Date.now()) < 60_000).toBeTruthy();
    expect(rest).toEqual({
      app_id: 'app_1',
      profile_id: 'player-1',
      event: 'urm_email_sent',
      urm_insert_id: `urm-email-${MESSAGE_ID}`,
      message_id: MESSAGE_ID,
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

  test("answers 409 naming the sender when the application no longer holds the channel's sender, and sends nothing", async () => {
    await senders.release('app_1', 'example.com');
    await senders.claim(assignment('app_2', 'news@example.com'));

    const response = await post(valid);

    expect(response.statusCode).toBe(409);
    expect(JSON.parse(response.body)).toEqual({
      message: 'the sender news@example.com is not assigned to the application: the operator assigns senders (or send through another channel)',
    });
    expect(mailsSent().length).toBe(0);
    expect(streamWrites().length).toBe(0);
  });

  test("leaves reply_to free: any address may be the reply-to of the channel's sender", async () => {
    const response = await post({ ...valid, reply_to: 'support@elsewhere.example' });

    expect(response.statusCode).toBe(200);
    expect(mailsSent()[0].replyTo).toEqual(['"Help desk" <support@elsewhere.example>']);
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

  test('answers 400 when the mail service refuses the message (an unverified sender), and records no event', async () => {
    // What the SES mailer throws for SES's MessageRejected (test/unit/email/ses-mailer.test.ts).
    jest
      .spyOn(mailer, 'send')
      .mockRejectedValue(
        new ValidationError(
          ['from_email must be a verified sender (and, while the SES account is in the sandbox, every recipient too)'],
          'the mail service refused the message',
        ),
      );

    const response = await post(valid);

    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      message: 'the mail service refused the message',
      errors: ['from_email must be a verified sender (and, while the SES account is in the sandbox, every recipient too)'],
    });
    expect(streamWrites().length).toBe(0);
  });

  test('answers 500 without internals when the mail service fails otherwise, and records no event', async () => {
    jest.spyOn(mailer, 'send').mockRejectedValue(new Error('AccessDeniedException: arn:aws:iam::123:role/secret'));

    const response = await post(valid);

    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({ message: 'internal server error' });
    expect(streamWrites().length).toBe(0);
  });

  test('answers 200 with the message id when the mail went out but the stream is unreachable: a retry would send it twice', async () => {
    stream.failure = new Error('stream unreachable');

    const response = await post(valid);

    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body).message_id).toBe(MESSAGE_ID);
    expect(mailsSent().length).toBe(1);
  });
});
