import { describe, expect, test } from '@jest/globals';
import type { EventBridgeEvent } from 'aws-lambda';
import { makeEmailEventsHandler } from '../../../functions/consumers/email-events/make-handler';
import { mailTagNames, profileIdFromTags, profileTags } from '../../../functions/domain/email-events';
import { composeMail } from '../../../functions/messaging/email';
import type { Channel } from '../../../functions/domain/channels';
import { simulatedEvents, type SendEmailRequestBody } from '../../../lib/local/ses-simulator';
import { context } from '../../support/lambda';
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
const sentAt = new Date('2026-11-21T10:00:00.000Z');

/** What SES would publish for a mail urm sent to `address` for `profileId` (the local simulator's events). */
function eventsFor(address: string, profileId = 'player-1'): EventBridgeEvent<string, unknown>[] {
  const mail = composeMail({ channel_id: 'ch_news', to_addresses: [{ email: address, name: 'Ann' }], subject: 'Hi', text_body: 'Hi' }, channel, profileId);
  const request: SendEmailRequestBody = {
    FromEmailAddress: mail.from,
    Destination: { ToAddresses: mail.to },
    EmailTags: Object.entries(mail.tags).map(([Name, Value]) => ({ Name, Value })),
  };
  return simulatedEvents(request, 'ses-msg-1', sentAt, 'eu-west-1');
}

function fakes(stream = new MemoryStream()) {
  const handler = makeEmailEventsHandler({ writer: stream, now: () => new Date('2026-11-21T10:05:00.000Z'), newId: () => 'new-id' });
  return { stream, handle: (event: EventBridgeEvent<string, unknown>) => handler(event, context('EmailEventsFunction')) };
}

describe('the profile tag', () => {
  test.each([['player-1'], ['Zoë Ørsted #7'], ['用户'.repeat(64)], ['😀'.repeat(64)]])('carries %s in tag values SES accepts, and back', (profileId) => {
    const tags = profileTags(profileId);

    for (const value of Object.values(tags)) expect(value).toMatch(/^[A-Za-z0-9_-]{1,256}$/);
    expect(profileIdFromTags(Object.fromEntries(Object.entries(tags).map(([name, value]) => [name, [value]])))).toBe(profileId);
  });

  test('names no profile when the tag is missing, not base64url, or not UTF-8', () => {
    expect(profileIdFromTags({})).toBe(undefined);
    expect(profileIdFromTags({ profile: ['a+b/'] })).toBe(undefined);
    expect(profileIdFromTags({ profile: [Buffer.from([0xff, 0xfe]).toString('base64url')] })).toBe(undefined);
  });
});

describe('SES events of urm mail', () => {
  test('a hard bounce suppresses the address and puts urm_email_bounced on the timeline, with no address', async () => {
    const { stream, handle } = fakes();
    const [bounce] = eventsFor('bounce@simulator.amazonses.com');

    const result = await handle(bounce);

    expect(result).toEqual({ written: 2 });
    const [profile, event] = stream.envelopes();
    expect(stream.entries().map((entry) => entry.partitionKey)).toEqual(['app_1#player-1', 'app_1#player-1']);
    expect(profile.kind).toBe('profile');
    expect(profile.record).toEqual({
      app_id: 'app_1',
      profile_id: 'player-1',
      urm_date_time: '2026-11-21T10:00:00.500Z',
      urm_insert_id: expect.stringMatching(/^urm-ses-suppress-ses-msg-1-[0-9a-f]{24}$/),
      urm_set: { urm_email_suppressed: 'bounce' },
    });
    expect(event.kind).toBe('event');
    expect(event.record).toEqual({
      app_id: 'app_1',
      profile_id: 'player-1',
      urm_date_time: '2026-11-21T10:00:00.500Z',
      urm_insert_id: expect.stringMatching(/^urm-ses-bounce-ses-msg-1-[0-9a-f]{24}$/),
      event: 'urm_email_bounced',
      bounce_type: 'Permanent',
      bounce_subtype: 'General',
      message_id: 'ses-msg-1',
      channel_id: 'ch_news',
    });
    expect(JSON.stringify(stream.envelopes())).not.toContain('simulator.amazonses.com');
  });

  test('a transient bounce goes on the timeline and leaves the address as it was', async () => {
    const { stream, handle } = fakes();
    const [bounce] = eventsFor('bounce@simulator.amazonses.com') as EventBridgeEvent<string, { bounce: Record<string, unknown> }>[];
    bounce.detail.bounce.bounceType = 'Transient';
    bounce.detail.bounce.bounceSubType = 'MailboxFull';

    await handle(bounce);

    expect(stream.envelopes().map((envelope) => [envelope.kind, envelope.record.event, envelope.record.bounce_type, envelope.record.bounce_subtype])).toEqual([
      ['event', 'urm_email_bounced', 'Transient', 'MailboxFull'],
    ]);
  });

  test('a complaint follows its delivery: urm_email_delivered, then the suppression and urm_email_complained', async () => {
    const { stream, handle } = fakes();
    const events = eventsFor('complaint@simulator.amazonses.com');

    for (const event of events) await handle(event);

    expect(events.map((event) => event['detail-type'])).toEqual(['Email Delivered', 'Email Complained']);
    expect(stream.envelopes().map((envelope) => [envelope.kind, envelope.record.event ?? envelope.record.urm_set])).toEqual([
      ['event', 'urm_email_delivered'],
      ['profile', { urm_email_suppressed: 'complaint' }],
      ['event', 'urm_email_complained'],
    ]);
    expect(stream.envelopes()[2].record).toMatchObject({ feedback_type: 'abuse', message_id: 'ses-msg-1', channel_id: 'ch_news' });
    // After the send (stamped once SES answered), the complaint after its delivery: the timeline reads in that order.
    expect(stream.envelopes().map((envelope) => envelope.record.urm_date_time)).toEqual([
      '2026-11-21T10:00:00.500Z',
      '2026-11-21T10:00:01.000Z',
      '2026-11-21T10:00:01.000Z',
    ]);
  });

  test.each([['success@simulator.amazonses.com'], ['ooto@simulator.amazonses.com'], ['ann@example.com']])(
    'a delivery to %s puts urm_email_delivered with the message id and channel on the timeline',
    async (address) => {
      const { stream, handle } = fakes();
      const [delivery, ...more] = eventsFor(address);

      await handle(delivery);

      expect(more).toEqual([]);
      expect(stream.envelopes().map((envelope) => envelope.record)).toEqual([
        {
          app_id: 'app_1',
          profile_id: 'player-1',
          urm_date_time: '2026-11-21T10:00:00.500Z',
          urm_insert_id: expect.stringMatching(/^urm-ses-delivery-ses-msg-1-/),
          event: 'urm_email_delivered',
          message_id: 'ses-msg-1',
          channel_id: 'ch_news',
        },
      ]);
    },
  );

  test('the suppression list bounces as a hard bounce of its own subtype', async () => {
    const { stream, handle } = fakes();

    await handle(eventsFor('suppressionlist@simulator.amazonses.com')[0]);

    expect(stream.envelopes().map((envelope) => envelope.record.urm_set ?? envelope.record.bounce_subtype)).toEqual([
      { urm_email_suppressed: 'bounce' },
      'OnAccountSuppressionList',
    ]);
  });

  test('a redelivered event is written with the same insert ids and time, so the stream stores it once', async () => {
    const { stream, handle } = fakes();
    const [bounce] = eventsFor('bounce@simulator.amazonses.com');

    await handle(bounce);
    await handle(structuredClone(bounce));

    const [first, second] = stream.writes.map((write) =>
      write.map((entry) =>
        Buffer.from(entry.data)
          .toString('utf8')
          .replace(/"received_at":"[^"]*"/, ''),
      ),
    );
    expect(second).toEqual(first);
  });

  test('a different recipient of the same mail is another event: another insert id', async () => {
    const { stream, handle } = fakes();
    const [ann] = eventsFor('ann@example.com');
    const [zoe] = eventsFor('zoe@example.com');

    await handle(ann);
    await handle(zoe);

    const [a, z] = stream.envelopes();
    expect(a.record.urm_insert_id).not.toBe(z.record.urm_insert_id);
  });

  test("ignores a mail without urm's tags, and an event it does not take, writing nothing", async () => {
    const { stream, handle } = fakes();
    const [foreign] = eventsFor('bounce@simulator.amazonses.com') as EventBridgeEvent<string, { mail: { tags: Record<string, string[]> } }>[];
    delete foreign.detail.mail.tags[mailTagNames.profile];
    // SES's rendering failures: urm takes bounces, complaints, deliveries, opens and clicks only.
    const [opened] = eventsFor('ann@example.com') as EventBridgeEvent<string, { eventType: string }>[];
    opened.detail.eventType = 'Rendering Failure';

    expect(await handle(foreign)).toEqual({ ignored: expect.stringContaining('without urm’s application and profile tags') });
    expect(await handle(opened)).toEqual({ ignored: expect.stringContaining('Rendering Failure') });
    expect(await handle({ ...opened, detail: { eventType: 'Bounce' } })).toEqual({ ignored: 'format' });
    expect(stream.writes).toEqual([]);
  });

  test('throws when the stream refuses a record, so the event is delivered again', async () => {
    const { handle } = fakes(new MemoryStream([1]));

    await expect(handle(eventsFor('bounce@simulator.amazonses.com')[0])).rejects.toThrow('the stream refused 1 of 2 records');
  });

  test('throws when the stream cannot be reached', async () => {
    const stream = new MemoryStream();
    stream.failure = new Error('connection reset');
    const { handle } = fakes(stream);

    await expect(handle(eventsFor('success@simulator.amazonses.com')[0])).rejects.toThrow('connection reset');
  });
});
