/**
 * Messaging a player from the back office, over HTTP on the local stack:
 * the mail reaches the local SES store and the player's timeline names who
 * sent it; roles, CSRF and other applications are refused by the server.
 */
import { commandLineActor } from '../../functions/domain/audit';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { createApp } from '../../functions/back-office/apps';
import { createChannel } from '../../functions/back-office/channels';
import { issueKey } from '../../functions/back-office/keys';
import { assignSender } from '../../functions/back-office/senders';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { consoleRequest, consoleSignIn, type ConsoleSession } from '../support/console';
import { request } from '../support/http';
import { waitFor } from '../support/local-process';
import { testStack, type TestStack } from '../support/local-stack';
import { mailWithId, mailWithSubject } from '../support/mail';

let stack: TestStack;
let ours: { appId: string; serverKey: string; channelId: string; fromEmail: string };
let theirs: { appId: string; serverKey: string; channelId: string; fromEmail: string };
let session: ConsoleSession;
let viewer: ConsoleSession;

async function newApplication(baseUrl: string) {
  const office = localBackOffice(localClients(stack.endpoints).document);
  const app = await createApp(office, { name: `console ${randomUUID()}`, portalOrigin: baseUrl });
  // A sender of its own: each is one application's.
  const fromEmail = `news@casino-${randomUUID().slice(0, 8)}.example`;
  await assignSender(office, commandLineActor, app.app_id, { email: fromEmail });
  const channel = await createChannel(office, commandLineActor, { appId: app.app_id, name: 'News', fromEmail, fromName: 'Casino News' });
  return { appId: app.app_id, serverKey: (await issueKey(office, app.app_id, commandLineActor, 'server')).key, channelId: channel.channel_id, fromEmail };
}

async function ingest(app: { appId: string; serverKey: string }, records: Record<string, unknown>[]) {
  const response = await request(stack.baseUrl, 'POST', '/profiles', {
    key: app.serverKey,
    body: records.map((r) => ({ app_id: app.appId, urm_date_time: '2026-11-01T00:00:00Z', ...r })),
  });
  expect(response.body.FailedRecordCount).toBe(0);
}

const api = (method: 'GET' | 'POST', path: string, body?: unknown, as: ConsoleSession | null = session) =>
  consoleRequest(stack.baseUrl, as, method, path, body);

/** Reads until `check` holds (the stream applies within about a second), at most 15 s. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  let last!: T;
  await waitFor(
    async () => {
      last = await read();
      return check(last);
    },
    'the console to show the send',
    15_000,
  );
  return last;
}

const mail = (subject = `Bonus ${randomUUID()}`) => ({ channel_id: ours.channelId, subject, text_body: 'Your bonus is ready', action_id: randomUUID() });

beforeAll(async () => {
  stack = await testStack();
  ours = await newApplication(stack.baseUrl);
  theirs = await newApplication(stack.baseUrl);
  session = await consoleSignIn(stack.baseUrl, ours);
  viewer = await consoleSignIn(stack.baseUrl, ours, 'viewer');
  await ingest(ours, [
    { profile_id: 'player-42', email: 'ann@example.com', name: 'Ann Lee', urm_consent_email: true },
    { profile_id: 'player-7', vip: true },
  ]);
  await ingest(theirs, [{ profile_id: 'player-43', email: 'theirs@example.com' }]);
  await eventually(
    () => api('GET', '/console/api/players/player-7'),
    (r) => r.status === 200,
  );
  await eventually(
    () => api('GET', '/console/api/players/player-42'),
    (r) => r.status === 200,
  );
}, 60_000);

describe('emailing a player from the console', () => {
  test("the mail reaches the player's address through the channel, and the timeline names who sent it, once however often it is retried", async () => {
    const body = mail();

    const first = await api('POST', '/console/api/players/player-42/email', body);
    const again = await api('POST', '/console/api/players/player-42/email', body);
    // A later change of the same player: once it shows, the stream has applied everything before it.
    const later = await api('POST', '/console/api/players/player-42/attributes', { action: 'set', attribute: 'checked', value: body.action_id });

    expect([first.status, again.status, later.status]).toEqual([200, 200, 200]);
    expect(first.body).toEqual({ action_id: body.action_id, message_id: expect.any(String) });
    expect(again.body).toEqual(first.body);
    const sent = await mailWithId(stack, first.body.message_id);
    expect(sent?.destination.to).toEqual(['"Ann Lee" <ann@example.com>']);
    expect(sent?.from).toBe(`"Casino News" <${ours.fromEmail}>`);
    expect(await mailWithSubject(stack, body.subject)).toHaveLength(1);
    await eventually(
      () => api('GET', '/console/api/players/player-42/timeline?event=urm_back_office_action'),
      (r) => r.body.events?.some((e: { attributes: { value?: unknown } }) => e.attributes.value === body.action_id),
    );
    const timeline = await api('GET', '/console/api/players/player-42/timeline?event=urm_email_sent');
    expect(
      timeline.body.events
        .filter((e: { attributes: { action_id: string } }) => e.attributes.action_id === body.action_id)
        .map((e: { attributes: unknown }) => e.attributes),
    ).toEqual([
      {
        message_id: first.body.message_id,
        channel_id: ours.channelId,
        subject: body.subject,
        user_id: session.userId,
        user_email: expect.stringMatching(/@example\.com$/),
        action_id: body.action_id,
        purpose: 'marketing',
      },
    ]);
  });

  test('a player without an email address is 409, and nothing is sent', async () => {
    const body = mail();

    const response = await api('POST', '/console/api/players/player-7/email', body);

    expect(response.status).toBe(409);
    expect(response.body).toEqual({ message: 'the player has no email address (attribute email)' });
    expect(await mailWithSubject(stack, body.subject)).toEqual([]);
  });

  test('a viewer is refused with 403 by the server, and nothing is sent', async () => {
    const body = mail();

    const response = await api('POST', '/console/api/players/player-42/email', body, viewer);

    expect(response.status).toBe(403);
    expect(await mailWithSubject(stack, body.subject)).toEqual([]);
  });

  test('without the CSRF token the call is refused with 403, and nothing is sent', async () => {
    const body = mail();

    const response = await api('POST', '/console/api/players/player-42/email', body, { ...session, csrf: 'wrong' });

    expect(response.status).toBe(403);
    expect(await mailWithSubject(stack, body.subject)).toEqual([]);
  });

  test("another application's player or channel is not found by guessing its id, and nothing is sent", async () => {
    const theirPlayer = mail();
    const theirChannel = { ...mail(), channel_id: theirs.channelId };

    const [player, channel] = [
      await api('POST', '/console/api/players/player-43/email', theirPlayer),
      await api('POST', '/console/api/players/player-42/email', theirChannel),
    ];

    expect([player.status, player.body.message, channel.status, channel.body.message]).toEqual([404, 'player not found', 404, 'channel not found']);
    expect([...(await mailWithSubject(stack, theirPlayer.subject)), ...(await mailWithSubject(stack, theirChannel.subject))]).toEqual([]);
  });
});

describe('pushing to a player from the console', () => {
  test("a player without a web push device is 409, another application's player 404, a viewer 403", async () => {
    const push = { title: 'Your bonus', body: 'is ready' };

    const responses = [
      await api('POST', '/console/api/players/player-7/push', push),
      await api('POST', '/console/api/players/player-43/push', push),
      await api('POST', '/console/api/players/player-42/push', push, viewer),
    ];

    expect(responses.map((r) => r.status)).toEqual([409, 404, 403]);
  });
});
