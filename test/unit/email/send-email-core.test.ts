import { describe, expect, jest, test } from '@jest/globals';
import { sendEmail } from '../../../functions/api/send-email/core';
import { composeMail, emailSentInsertId, sendEmailProblems } from '../../../functions/messaging/email';
import type { SendEmailRequest } from '../../../functions/api/send-email/schema';
import type { Channel } from '../../../functions/domain/channels';
import { Conflict, Forbidden, NotFound, ValidationError } from '../../../functions/domain/errors';
import { decodeEnvelope } from '../../../functions/domain/stream-record';
import { MemoryMailer } from '../../support/messaging';
import { assignment, MemoryChannelStore, MemorySenderStore } from '../../support/settings';
import { MemoryStream } from '../../support/memory-stream';

const channel: Channel = {
  app_id: 'app_1',
  channel_id: 'ch_news',
  name: 'News',
  from_email: 'news@example.com',
  from_name: 'Casino News',
  enabled: true,
  created_at: '2026-11-01T00:00:00.000Z',
};

const request: SendEmailRequest = {
  app_id: 'app_1',
  channel_id: 'ch_news',
  profile_id: 'player-1',
  to_addresses: [{ email: 'ann@example.com', name: 'Ann Lee' }],
  subject: 'Welcome',
  html_body: '<p>Hello</p>',
  text_body: 'Hello',
};

const sentAt = new Date('2026-11-21T10:00:00.000Z');

/** In-memory ports: what was mailed and written is kept for the assertions. */
function fakes(options: { channels?: Channel[]; stream?: MemoryStream; senders?: string[] } = {}) {
  const mailer = new MemoryMailer();
  const stream = options.stream ?? new MemoryStream();
  const channels = new MemoryChannelStore();
  channels.channels.push(...(options.channels ?? [channel]));
  // By default the operator assigned app_1 the domain of its channel.
  const senders = new MemorySenderStore((options.senders ?? ['example.com']).map((sender) => assignment('app_1', sender)));
  const lookups = jest.spyOn(channels, 'get');
  return {
    mailed: mailer.sent,
    written: stream.writes,
    lookups: lookups.mock.calls,
    senders,
    send: sendEmail({ channels, senders, mailer, writer: stream, now: () => sentAt }),
  };
}

describe('send_email core', () => {
  test('sends from the channel and answers the mail service message id', async () => {
    const { send, mailed } = fakes();

    const sent = await send(request, 'app_1');

    expect(sent.messageId).toBe('ses-1');
    expect(sent.eventError).toBe(undefined);
    expect(mailed).toEqual([
      {
        from: '"Casino News" <news@example.com>',
        to: ['"Ann Lee" <ann@example.com>'],
        replyTo: [],
        subject: 'Welcome',
        html: '<p>Hello</p>',
        text: 'Hello',
        // The profile in base64url: SES tag values allow only [A-Za-z0-9_-].
        tags: { app_id: 'app_1', channel_id: 'ch_news', profile: 'cGxheWVyLTE' },
      },
    ]);
  });

  test('puts an urm_email_sent event with the message id, channel and subject, and no body or address, on the stream', async () => {
    const { send, written } = fakes();

    await send(request, 'app_1');

    expect(written.length).toBe(1);
    const [entry] = written[0];
    expect(entry.partitionKey).toBe('app_1#player-1');
    const envelope = decodeEnvelope(entry.data);
    expect(envelope.kind).toBe('event');
    expect(envelope.record).toEqual({
      app_id: 'app_1',
      profile_id: 'player-1',
      event: 'urm_email_sent',
      urm_date_time: '2026-11-21T10:00:00.000Z',
      urm_insert_id: 'urm-email-ses-1',
      message_id: 'ses-1',
      channel_id: 'ch_news',
      subject: 'Welcome',
    });
  });

  test('each sender field defaults to the channel on its own', () => {
    expect(composeMail({ ...request, from_email: 'vip@example.com' }, channel, 'player-1').from).toBe('"Casino News" <vip@example.com>');
    expect(composeMail({ ...request, from_name: 'VIP desk' }, channel, 'player-1').from).toBe('"VIP desk" <news@example.com>');
  });

  test("refuses a from_email that is not the channel's address, naming the field, and sends nothing", async () => {
    const { send, mailed, written } = fakes();

    const sending = send({ ...request, from_email: 'security@bank.example' }, 'app_1');

    await expect(sending).rejects.toThrow(ValidationError);
    await expect(sending).rejects.toMatchObject({ errors: ["from_email must be the channel's address (news@example.com)"] });
    expect(mailed.length).toBe(0);
    expect(written.length).toBe(0);
  });

  test("refuses another address at the channel's domain when the channel names no domain", async () => {
    const { send, mailed } = fakes();

    await expect(send({ ...request, from_email: 'vip@example.com' }, 'app_1')).rejects.toThrow(ValidationError);
    expect(mailed.length).toBe(0);
  });

  test("takes the channel's own address with its domain in any case, and sends it in lower case", async () => {
    const { send, mailed } = fakes();

    await send({ ...request, from_email: 'news@Example.COM' }, 'app_1');

    expect(mailed[0].from).toBe('"Casino News" <news@example.com>');
  });

  test('a local part is compared exactly: another case is another address', async () => {
    const { send, mailed } = fakes();

    await expect(send({ ...request, from_email: 'NEWS@example.com' }, 'app_1')).rejects.toThrow(ValidationError);
    expect(mailed.length).toBe(0);
  });

  test('takes any address at the domain a channel names, comparing the domain case-insensitively', async () => {
    const { send, mailed } = fakes({ channels: [{ ...channel, from_domain: 'example.com' }] });

    await send({ ...request, from_email: 'vip@EXAMPLE.com' }, 'app_1');

    expect(mailed[0].from).toBe('"Casino News" <vip@example.com>');
  });

  const elsewhere = ['security@bank.example', 'vip@mail.example.com', 'vip@example.com.bank.example', 'vip@notexample.com'];
  for (const address of elsewhere) {
    test(`refuses ${address} for a channel that names example.com, naming the domain`, async () => {
      const { send, mailed } = fakes({ channels: [{ ...channel, from_domain: 'example.com' }] });

      const sending = send({ ...request, from_email: address }, 'app_1');

      await expect(sending).rejects.toMatchObject({ errors: ["from_email must be the channel's address or an address at example.com"] });
      expect(mailed.length).toBe(0);
    });
  }

  test('the default sender, the channel address, goes out with its domain in lower case', async () => {
    const { send, mailed } = fakes({ channels: [{ ...channel, from_email: 'News@Example.com' }] });

    await send(request, 'app_1');

    expect(mailed[0].from).toBe('"Casino News" <News@example.com>');
  });

  test("refuses with 409 and sends nothing when the channel's sender is not assigned to the application", async () => {
    const { send, mailed, written } = fakes({ senders: [] });

    const sending = send(request, 'app_1');

    await expect(sending).rejects.toThrow(Conflict);
    await expect(sending).rejects.toThrow(/news@example\.com is not assigned to the application/);
    expect([mailed, written]).toEqual([[], []]);
  });

  test('stops sending once the operator releases the sender, and sends again from the application it is assigned to next', async () => {
    const { send, mailed, senders } = fakes({ senders: ['news@example.com'] });
    await send(request, 'app_1');

    await senders.release('app_1', 'news@example.com');
    await expect(send(request, 'app_1')).rejects.toThrow(Conflict);
    await senders.claim(assignment('app_2', 'news@example.com'));
    await expect(send(request, 'app_1')).rejects.toThrow(Conflict);

    expect(mailed.length).toBe(1);
  });

  test("sends as an address at the channel's domain only while that domain is assigned to the application", async () => {
    const domainChannel = { ...channel, from_domain: 'example.com' };
    const assigned = fakes({ channels: [domainChannel], senders: ['example.com'] });
    const addressOnly = fakes({ channels: [domainChannel], senders: ['news@example.com'] });

    await assigned.send({ ...request, from_email: 'vip@example.com' }, 'app_1');
    const refused = addressOnly.send({ ...request, from_email: 'vip@example.com' }, 'app_1');

    expect(assigned.mailed[0]?.from).toBe('"Casino News" <vip@example.com>');
    await expect(refused).rejects.toThrow(Conflict);
    expect(addressOnly.mailed).toEqual([]);
  });

  test('reply-to carries its name when one is given', () => {
    expect(composeMail({ ...request, reply_to: 'help@example.com', reply_to_name: 'Help' }, channel, 'player-1').replyTo).toEqual([
      '"Help" <help@example.com>',
    ]);
    expect(composeMail({ ...request, reply_to: 'help@example.com' }, channel, 'player-1').replyTo).toEqual(['help@example.com']);
  });

  test('the insert id follows from the message id, so the same send is stored once', () => {
    expect(emailSentInsertId('abc')).toBe(emailSentInsertId('abc'));
    expect(emailSentInsertId('abc')).not.toBe(emailSentInsertId('abd'));
    const long = emailSentInsertId('x'.repeat(300));
    expect(long).toMatch(/^urm-email-[0-9a-f]{64}$/);
  });

  test("looks the channel up within the caller's application only", async () => {
    const { send, lookups, mailed } = fakes({ channels: [{ ...channel, app_id: 'app_2' }] });

    const sending = send(request, 'app_1');

    await expect(sending).rejects.toThrow(NotFound);
    await expect(sending).rejects.toThrow(/^channel not found$/);

    expect(lookups).toEqual([['app_1', 'ch_news']]);
    expect(mailed.length).toBe(0);
  });

  test('a disabled channel is not found, and nothing is sent', async () => {
    const { send, mailed, written } = fakes({ channels: [{ ...channel, enabled: false }] });

    await expect(send(request, 'app_1')).rejects.toThrow(NotFound);

    expect(mailed.length).toBe(0);
    expect(written.length).toBe(0);
  });

  test("another application's app_id is Forbidden before any lookup", async () => {
    const { send, lookups, mailed } = fakes();

    await expect(send({ ...request, app_id: 'app_2' }, 'app_1')).rejects.toThrow(Forbidden);

    expect(lookups).toEqual([]);
    expect(mailed.length).toBe(0);
  });

  test('a request without any body, with a body over 256 KiB, or with reply_to_name alone lists every problem', () => {
    const { html_body: _html, text_body: _text, ...bodiless } = request;

    expect(sendEmailProblems({ ...bodiless, reply_to_name: 'Help' })).toEqual(['html_body or text_body is required', 'reply_to_name needs reply_to']);
    // 100,000 three-byte characters: under the limit in characters, over it in bytes.
    expect(sendEmailProblems({ ...request, text_body: '€'.repeat(100_000) })).toEqual(['text_body must be at most 256 KiB (UTF-8)']);
    expect(sendEmailProblems({ ...request, html_body: 'x'.repeat(256 * 1024) })).toEqual([]);
  });

  test('an invalid request is refused before the channel is read', async () => {
    const { send, lookups } = fakes();

    await expect(send({ ...request, html_body: undefined, text_body: undefined }, 'app_1')).rejects.toThrow(ValidationError);

    expect(lookups).toEqual([]);
  });

  test('a mail that went out is answered even when its event cannot be written, with the failure kept for the log', async () => {
    const failing = new MemoryStream();
    failing.failure = new Error('stream unreachable');
    const { send, mailed } = fakes({ stream: failing });

    const sent = await send(request, 'app_1');

    expect(mailed.length).toBe(1);
    expect(sent.messageId).toBe('ses-1');
    expect(String(sent.eventError)).toMatch(/stream unreachable/);
  });

  test('an event the stream refuses after its retries is reported the same way', async () => {
    const { send } = fakes({ stream: new MemoryStream([0]) });

    const sent = await send(request, 'app_1');

    expect(String(sent.eventError)).toMatch(/ProvisionedThroughputExceededException/);
  });
});
