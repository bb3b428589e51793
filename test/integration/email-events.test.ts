/**
 * SES's bounces, complaints and deliveries, over HTTP on the local stack: the
 * local SES answers the mailbox simulator's addresses as SES does and hands
 * its events to the function the AWS rule targets, which suppresses the
 * address and puts the event on the player's timeline.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { commandLineActor } from '../../functions/domain/audit';
import { createApp } from '../../functions/back-office/apps';
import { createChannel } from '../../functions/back-office/channels';
import { issueKey } from '../../functions/back-office/keys';
import { assignSender } from '../../functions/back-office/senders';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { consoleRequest, consoleSignIn, type ConsoleSession } from '../support/console';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';
import { until } from '../support/profiles';

let stack: TestStack;
let app: { appId: string; serverKey: string; commsKey: string; channelId: string };
let session: ConsoleSession;

const simulator = (mailbox: string) => `${mailbox}@simulator.amazonses.com`;

async function ingest(records: Record<string, unknown>[]) {
  const response = await request(stack.baseUrl, 'POST', '/profiles', {
    key: app.serverKey,
    body: records.map((record) => ({ app_id: app.appId, urm_date_time: '2026-11-01T00:00:00Z', ...record })),
  });
  expect(response.body.FailedRecordCount).toBe(0);
}

const readProfile = (profileId: string) =>
  request(stack.baseUrl, 'GET', `/profiles/${encodeURIComponent(profileId)}?app_id=${app.appId}`, { key: app.serverKey });

const readTimeline = async (profileId: string): Promise<{ event: string; attributes: Record<string, unknown> }[]> =>
  (await request(stack.baseUrl, 'GET', `/profiles/${encodeURIComponent(profileId)}/events?app_id=${app.appId}&limit=100`, { key: app.serverKey })).body
    .events ?? [];

/** The profile once `done` holds of its attributes (the stream applies within about a second). */
const profileOnce = (profileId: string, done: (attributes: Record<string, unknown>) => boolean, what: string) =>
  until(
    () => readProfile(profileId),
    (response) => response.status === 200 && done(response.body.attributes),
    what,
  );

const timelineWith = (profileId: string, events: string[]) =>
  until(
    () => readTimeline(profileId),
    (timeline) => events.every((name) => timeline.some((event) => event.event === name)),
    `${events.join(', ')} on ${profileId}'s timeline`,
  );

function sendEmail(profileId: string, address: string) {
  return request(stack.baseUrl, 'POST', '/api/send_email', {
    key: app.commsKey,
    body: {
      app_id: app.appId,
      channel_id: app.channelId,
      profile_id: profileId,
      to_addresses: [{ email: address, name: 'Ann Lee' }],
      subject: `Your bonus ${randomUUID()}`,
      text_body: 'Your bonus is ready.',
    },
  });
}

beforeAll(async () => {
  stack = await testStack();
  const office = localBackOffice(localClients(stack.endpoints).document);
  const created = await createApp(office, { name: `email events ${randomUUID()}`, portalOrigin: stack.baseUrl });
  // A sender of its own: each is one application's.
  const fromEmail = `news@casino-${randomUUID().slice(0, 8)}.example`;
  await assignSender(office, commandLineActor, created.app_id, { email: fromEmail });
  const channel = await createChannel(office, commandLineActor, { appId: created.app_id, name: 'News', fromEmail, fromName: 'Casino News' });
  app = {
    appId: created.app_id,
    serverKey: (await issueKey(office, created.app_id, commandLineActor, 'server')).key,
    commsKey: (await issueKey(office, created.app_id, commandLineActor, 'comms')).key,
    channelId: channel.channel_id,
  };
  session = await consoleSignIn(stack.baseUrl, app);
}, 60_000);

describe('bounces, complaints and deliveries of the local SES', () => {
  test("a send_email mail to the simulator's bounce address suppresses the player's address and puts urm_email_bounced on the timeline", async () => {
    const profileId = `bounce-${randomUUID()}`;
    await ingest([{ profile_id: profileId, email: simulator('bounce') }]);

    const sent = await sendEmail(profileId, simulator('bounce'));

    expect(sent.status).toBe(200);
    const profile = await profileOnce(profileId, (attributes) => attributes.urm_email_suppressed !== undefined, 'the suppression');
    expect(profile.body.attributes.urm_email_suppressed).toBe('bounce');
    const timeline = await timelineWith(profileId, ['urm_email_bounced']);
    expect(timeline.filter((event) => event.event === 'urm_email_bounced').map((event) => event.attributes)).toEqual([
      { bounce_type: 'Permanent', bounce_subtype: 'General', message_id: sent.body.message_id, channel_id: app.channelId },
    ]);
    expect(timeline.map((event) => event.event)).not.toContain('urm_email_delivered');
  });

  test("a console mail to the simulator's complaint address is delivered, then suppresses the address with urm_email_complained", async () => {
    const profileId = `complaint-${randomUUID()}`;
    // Consenting: a console mail is marketing unless the operator says otherwise (the send gate).
    await ingest([{ profile_id: profileId, email: simulator('complaint'), name: 'Ann Lee', urm_consent_email: true }]);
    await profileOnce(profileId, () => true, 'the player');

    const sent = await consoleRequest(stack.baseUrl, session, 'POST', `/console/api/players/${encodeURIComponent(profileId)}/email`, {
      channel_id: app.channelId,
      subject: `Your bonus ${randomUUID()}`,
      text_body: 'Your bonus is ready.',
      action_id: randomUUID(),
    });

    expect(sent.status).toBe(200);
    const profile = await profileOnce(profileId, (attributes) => attributes.urm_email_suppressed !== undefined, 'the suppression');
    expect(profile.body.attributes.urm_email_suppressed).toBe('complaint');
    const timeline = await timelineWith(profileId, ['urm_email_delivered', 'urm_email_complained']);
    const about = { message_id: sent.body.message_id, channel_id: app.channelId };
    expect(timeline.filter((event) => event.event.startsWith('urm_email_')).map((event) => [event.event, event.attributes])).toEqual(
      expect.arrayContaining([
        ['urm_email_delivered', about],
        ['urm_email_complained', { ...about, feedback_type: 'abuse' }],
      ]),
    );
  });

  test("a mail to the simulator's success address puts urm_email_delivered on the timeline and suppresses nothing", async () => {
    const profileId = `success-${randomUUID()}`;
    await ingest([{ profile_id: profileId, email: simulator('success') }]);

    const sent = await sendEmail(profileId, simulator('success'));

    expect(sent.status).toBe(200);
    const timeline = await timelineWith(profileId, ['urm_email_sent', 'urm_email_delivered']);
    expect(timeline.filter((event) => event.event === 'urm_email_delivered').map((event) => event.attributes)).toEqual([
      { message_id: sent.body.message_id, channel_id: app.channelId },
    ]);
    expect((await readProfile(profileId)).body.attributes.urm_email_suppressed).toBe(undefined);
  });

  test('an integrator clears a suppression with urm_unset', async () => {
    const profileId = `cleared-${randomUUID()}`;
    await ingest([{ profile_id: profileId, email: simulator('bounce') }]);
    await sendEmail(profileId, simulator('bounce'));
    await profileOnce(profileId, (attributes) => attributes.urm_email_suppressed === 'bounce', 'the suppression');

    await ingest([{ profile_id: profileId, urm_date_time: new Date().toISOString(), urm_unset: ['urm_email_suppressed'], email: 'ann@example.com' }]);

    const profile = await profileOnce(profileId, (attributes) => attributes.email === 'ann@example.com', 'the new address');
    // null reads as absent: the gate sends again.
    expect(profile.body.attributes.urm_email_suppressed).toBeNull();
  });
});
