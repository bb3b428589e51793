import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { composeMail, emailSentInsertId, sendEmail, sendEmailProblems } from '../../../functions/send-email/core';
import type { SendEmailRequest } from '../../../functions/send-email/schema';
import type { Channel } from '../../../functions/shared/domain/channels';
import type { Mailer, OutgoingMail } from '../../../functions/shared/domain/email';
import { Forbidden, NotFound, ValidationError } from '../../../functions/shared/domain/errors';
import type { RecordWriter, StreamEntry, WriteReceipt } from '../../../functions/shared/domain/ingest';
import { decodeEnvelope } from '../../../functions/shared/domain/stream-record';

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
function fakes(options: { channels?: Channel[]; writer?: RecordWriter } = {}) {
  const mailed: OutgoingMail[] = [];
  const written: StreamEntry[][] = [];
  const lookups: [string, string][] = [];
  const mailer: Mailer = {
    async send(mail) {
      mailed.push(mail);
      return `0100019a-${mailed.length}`;
    },
  };
  const writer: RecordWriter = options.writer ?? {
    async write(entries): Promise<WriteReceipt> {
      written.push(entries);
      return { EncryptionType: 'NONE', FailedRecordCount: 0, Records: entries.map(() => ({ SequenceNumber: '1', ShardId: 'shardId-000000000000' })) };
    },
  };
  const channels = {
    async get(appId: string, channelId: string) {
      lookups.push([appId, channelId]);
      return (options.channels ?? [channel]).find((c) => c.app_id === appId && c.channel_id === channelId);
    },
  };
  return { mailed, written, lookups, send: sendEmail({ channels, mailer, writer, now: () => sentAt }) };
}

describe('send_email core', () => {
  test('sends from the channel and answers the mail service message id', async () => {
    const { send, mailed } = fakes();

    const sent = await send(request, 'app_1');

    assert.equal(sent.messageId, '0100019a-1');
    assert.equal(sent.eventError, undefined);
    assert.deepEqual(mailed, [
      {
        from: '"Casino News" <news@example.com>',
        to: ['"Ann Lee" <ann@example.com>'],
        replyTo: [],
        subject: 'Welcome',
        html: '<p>Hello</p>',
        text: 'Hello',
        tags: { app_id: 'app_1', channel_id: 'ch_news' },
      },
    ]);
  });

  test('puts an urm_email_sent event with the message id, channel and subject, and no body or address, on the stream', async () => {
    const { send, written } = fakes();

    await send(request, 'app_1');

    assert.equal(written.length, 1);
    const [entry] = written[0];
    assert.equal(entry.partitionKey, 'app_1#player-1');
    const envelope = decodeEnvelope(entry.data);
    assert.equal(envelope.kind, 'event');
    assert.deepEqual(envelope.record, {
      app_id: 'app_1',
      profile_id: 'player-1',
      event: 'urm_email_sent',
      urm_date_time: '2026-11-21T10:00:00.000Z',
      urm_insert_id: 'urm-email-0100019a-1',
      message_id: '0100019a-1',
      channel_id: 'ch_news',
      subject: 'Welcome',
    });
  });

  test('each sender field defaults to the channel on its own', () => {
    assert.equal(composeMail({ ...request, from_email: 'vip@example.com' }, channel).from, '"Casino News" <vip@example.com>');
    assert.equal(composeMail({ ...request, from_name: 'VIP desk' }, channel).from, '"VIP desk" <news@example.com>');
  });

  test('reply-to carries its name when one is given', () => {
    assert.deepEqual(composeMail({ ...request, reply_to: 'help@example.com', reply_to_name: 'Help' }, channel).replyTo, [
      '"Help" <help@example.com>',
    ]);
    assert.deepEqual(composeMail({ ...request, reply_to: 'help@example.com' }, channel).replyTo, ['help@example.com']);
  });

  test('the insert id follows from the message id, so the same send is stored once', () => {
    assert.equal(emailSentInsertId('abc'), emailSentInsertId('abc'));
    assert.notEqual(emailSentInsertId('abc'), emailSentInsertId('abd'));
    const long = emailSentInsertId('x'.repeat(300));
    assert.match(long, /^urm-email-[0-9a-f]{64}$/);
  });

  test("looks the channel up within the caller's application only", async () => {
    const { send, lookups, mailed } = fakes({ channels: [{ ...channel, app_id: 'app_2' }] });

    await assert.rejects(send(request, 'app_1'), (error: Error) => error instanceof NotFound && error.message === 'channel not found');

    assert.deepEqual(lookups, [['app_1', 'ch_news']]);
    assert.equal(mailed.length, 0);
  });

  test('a disabled channel is not found, and nothing is sent', async () => {
    const { send, mailed, written } = fakes({ channels: [{ ...channel, enabled: false }] });

    await assert.rejects(send(request, 'app_1'), NotFound);

    assert.equal(mailed.length, 0);
    assert.equal(written.length, 0);
  });

  test("another application's app_id is Forbidden before any lookup", async () => {
    const { send, lookups, mailed } = fakes();

    await assert.rejects(send({ ...request, app_id: 'app_2' }, 'app_1'), Forbidden);

    assert.deepEqual(lookups, []);
    assert.equal(mailed.length, 0);
  });

  test('a request without any body, with a body over 256 KiB, or with reply_to_name alone lists every problem', () => {
    const { html_body: _html, text_body: _text, ...bodiless } = request;

    assert.deepEqual(sendEmailProblems({ ...bodiless, reply_to_name: 'Help' }), ['html_body or text_body is required', 'reply_to_name needs reply_to']);
    // 100,000 three-byte characters: under the limit in characters, over it in bytes.
    assert.deepEqual(sendEmailProblems({ ...request, text_body: '€'.repeat(100_000) }), ['text_body must be at most 256 KiB (UTF-8)']);
    assert.deepEqual(sendEmailProblems({ ...request, html_body: 'x'.repeat(256 * 1024) }), []);
  });

  test('an invalid request is refused before the channel is read', async () => {
    const { send, lookups } = fakes();

    await assert.rejects(send({ ...request, html_body: undefined, text_body: undefined }, 'app_1'), ValidationError);

    assert.deepEqual(lookups, []);
  });

  test('a mail that went out is answered even when its event cannot be written, with the failure kept for the log', async () => {
    const failing: RecordWriter = {
      async write() {
        throw new Error('stream unreachable');
      },
    };
    const { send, mailed } = fakes({ writer: failing });

    const sent = await send(request, 'app_1');

    assert.equal(mailed.length, 1);
    assert.equal(sent.messageId, '0100019a-1');
    assert.match(String(sent.eventError), /stream unreachable/);
  });

  test('an event the stream refuses after its retries is reported the same way', async () => {
    const refusing: RecordWriter = {
      async write() {
        return { EncryptionType: 'NONE', FailedRecordCount: 1, Records: [{ ErrorCode: 'ProvisionedThroughputExceededException', ErrorMessage: 'slow down' }] };
      },
    };
    const { send } = fakes({ writer: refusing });

    const sent = await send(request, 'app_1');

    assert.match(String(sent.eventError), /ProvisionedThroughputExceededException/);
  });
});
