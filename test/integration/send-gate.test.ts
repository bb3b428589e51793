/**
 * The send gate over HTTP on the local stack, as an operator and an
 * integrator would meet it: no marketing to a self-excluded player (the local
 * SES store stays empty for them, the timeline says why), an account message
 * still goes, a cap of one a day holds until the player's next local day, a
 * message in quiet hours goes at the window's end, once, and send_email with
 * `purpose: marketing` refuses a player without consent. Each application's
 * clock is moved through PUT /local/clock, so nothing waits for a day.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createApp } from '../../functions/back-office/apps';
import { createChannel } from '../../functions/back-office/channels';
import { issueKey } from '../../functions/back-office/keys';
import { assignSender } from '../../functions/back-office/senders';
import { commandLineActor } from '../../functions/domain/audit';
import type { MessagingSettings } from '../../functions/domain/send-gate';
import { tables } from '../../functions/manifest/resources';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { consoleRequest, consoleSignIn, type ConsoleSession } from '../support/console';
import { request } from '../support/http';
import { waitFor } from '../support/local-process';
import { testStack, type TestStack } from '../support/local-stack';
import { mailUrl, sentMail } from '../support/mail';
import { moveClock } from '../support/send-gate';

interface GateApp {
  appId: string;
  serverKey: string;
  commsKey: string;
  channelId: string;
  session: ConsoleSession;
}

let stack: TestStack;
let capped: GateApp;
let quiet: GateApp;
let plain: GateApp;

async function newApplication(messaging: MessagingSettings): Promise<GateApp> {
  const office = localBackOffice(localClients(stack.endpoints).document);
  const app = await createApp(office, { name: `gate ${randomUUID()}`, portalOrigin: stack.baseUrl });
  await office.apps.update(app.app_id, { messaging });
  const fromEmail = `news@gate-${randomUUID().slice(0, 8)}.example`;
  await assignSender(office, commandLineActor, app.app_id, { email: fromEmail });
  const channel = await createChannel(office, commandLineActor, { appId: app.app_id, name: 'News', fromEmail, fromName: 'Casino News' });
  const serverKey = (await issueKey(office, app.app_id, commandLineActor, 'server')).key;
  const commsKey = (await issueKey(office, app.app_id, commandLineActor, 'comms')).key;
  return {
    appId: app.app_id,
    serverKey,
    commsKey,
    channelId: channel.channel_id,
    session: await consoleSignIn(stack.baseUrl, { appId: app.app_id, serverKey }),
  };
}

/** A player made through POST /profiles, and read back by the console once the stream applied it. */
async function player(app: GateApp, attributes: Record<string, unknown>): Promise<{ id: string; address: string }> {
  const id = `player-${randomUUID().slice(0, 8)}`;
  const address = `${id}@example.com`;
  const response = await request(stack.baseUrl, 'POST', '/profiles', {
    key: app.serverKey,
    body: [{ app_id: app.appId, profile_id: id, urm_date_time: new Date().toISOString(), email: address, ...attributes }],
  });
  expect(response.body.FailedRecordCount).toBe(0);
  await waitFor(async () => (await consoleRequest(stack.baseUrl, app.session, 'GET', `/console/api/players/${id}`)).status === 200, 'the player', 15_000);
  return { id, address };
}

const emailFromConsole = (app: GateApp, profileId: string, extra: Record<string, unknown> = {}) =>
  consoleRequest(stack.baseUrl, app.session, 'POST', `/console/api/players/${profileId}/email`, {
    channel_id: app.channelId,
    subject: `Free spins ${randomUUID()}`,
    text_body: 'Ten free spins are waiting',
    action_id: randomUUID(),
    ...extra,
  });

const mailTo = async (address: string) => (await sentMail(stack)).filter((mail) => mail.destination.to.some((to) => to.includes(address)));

async function timeline(app: GateApp, profileId: string, event: string): Promise<Record<string, unknown>[]> {
  const page = await request(stack.baseUrl, 'GET', `/profiles/${profileId}/events?app_id=${app.appId}&limit=100`, { key: app.serverKey });
  return (page.body.events as Record<string, unknown>[]).filter((e) => e.event === event);
}

async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string, ms = 20_000): Promise<T> {
  let last!: T;
  await waitFor(
    async () => {
      last = await read();
      return check(last);
    },
    what,
    ms,
  );
  return last;
}

const hhmm = (at: Date) => at.toISOString().slice(11, 16);

beforeAll(async () => {
  stack = await testStack();
  capped = await newApplication({ caps: { email: { daily: 1 } }, time_zone: 'UTC' });
  // Quiet now, in UTC: from an hour ago to an hour from now.
  const now = Date.now();
  quiet = await newApplication({ quiet_hours: { start: hhmm(new Date(now - 3600_000)), end: hhmm(new Date(now + 3600_000)) }, time_zone: 'UTC' });
  plain = await newApplication({});
});

afterAll(async () => {
  await moveClock(stack, capped.appId, 0);
  await moveClock(stack, quiet.appId, 0);
});

describe('the send gate from the console', () => {
  test('a self-excluded player gets no marketing email, and the timeline shows the refusal with its reason', async () => {
    const { id, address } = await player(capped, { urm_consent_email: true, urm_rg_status: 'self_excluded', urm_rg_until: '2027-01-01T00:00:00Z' });

    const response = await emailFromConsole(capped, id);

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ action_id: expect.any(String), suppressed: 'rg_status', detail: 'self-excluded until 2027-01-01' });
    const suppressed = await eventually(
      () => timeline(capped, id, 'urm_message_suppressed'),
      (events) => events.length > 0,
      'the refusal on the timeline',
    );
    expect(suppressed[0].attributes).toEqual(expect.objectContaining({ reason: 'rg_status', channel: 'email', purpose: 'marketing' }));
    expect(await mailTo(address)).toEqual([]);

    // The same player gets an account message.
    const account = await emailFromConsole(capped, id, { purpose: 'transactional', reason: 'password reset they asked for' });

    expect(account.status).toBe(200);
    expect(account.body.message_id).toEqual(expect.any(String));
    expect(await mailTo(address)).toHaveLength(1);
  });

  test("with a cap of one a day, the day's second marketing email is refused and the next local day's is sent", async () => {
    const { id, address } = await player(capped, { urm_consent_email: true });
    // Noon today in the application's time, so both sends fall on one local day whenever the test runs.
    const noon = Date.parse(`${new Date().toISOString().slice(0, 10)}T12:00:00Z`) - Date.now();
    await moveClock(stack, capped.appId, noon);

    const first = await emailFromConsole(capped, id);
    const second = await emailFromConsole(capped, id);
    await moveClock(stack, capped.appId, noon + 86_400_000);
    const nextDay = await emailFromConsole(capped, id);

    expect([first.status, second.status, nextDay.status]).toEqual([200, 200, 200]);
    expect(first.body.message_id).toEqual(expect.any(String));
    expect(second.body).toMatchObject({ suppressed: 'daily_cap' });
    expect(nextDay.body.message_id).toEqual(expect.any(String));
    expect(await mailTo(address)).toHaveLength(2);
  });
});

describe('quiet hours', () => {
  test('a message in the window is deferred, and sent once when the clock passes its end', async () => {
    const { id, address } = await player(quiet, { urm_consent_email: true });

    const response = await emailFromConsole(quiet, id);

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ action_id: expect.any(String), deferred_until: expect.any(String), detail: expect.stringContaining('quiet hours') });
    expect(await mailTo(address)).toEqual([]);

    await moveClock(stack, quiet.appId, Date.parse(response.body.deferred_until) - Date.now() + 5_000);
    await eventually(
      () => mailTo(address),
      (mail) => mail.length > 0,
      'the deferred mail',
    );
    // Gone from the outbox: no run can send it again.
    const document = localClients(stack.endpoints).document;
    await eventually(
      async () =>
        (await document.send(new GetCommand({ TableName: tables.sendGate.localName, Key: { pk: `app#${quiet.appId}`, sk: `msg#${response.body.action_id}` } })))
          .Item,
      (item) => item === undefined,
      'the outbox to let the message go',
    );
    expect(await mailTo(address)).toHaveLength(1);
  });
});

describe('send_email with a purpose', () => {
  test('marketing to a player without consent answers 200 suppressed no_consent, and nothing is sent', async () => {
    const { id, address } = await player(capped, {});

    const response = await request(stack.baseUrl, 'POST', '/api/send_email', {
      key: capped.commsKey,
      body: {
        app_id: capped.appId,
        channel_id: capped.channelId,
        profile_id: id,
        to_addresses: [{ email: address, name: 'Ann' }],
        subject: `Free spins ${randomUUID()}`,
        text_body: 'Ten free spins',
        purpose: 'marketing',
      },
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ suppressed: 'no_consent', detail: expect.any(String) });
    expect(await mailTo(address)).toEqual([]);
  });
});

/** The message as the player's mail client gets it: the local SES's raw message (RFC 5322). */
async function rawMessage(messageId: string): Promise<string> {
  const response = await fetch(`${mailUrl(stack)}/get-emlContent?messageId=${encodeURIComponent(messageId)}`);
  expect(response.status).toBe(200);
  const eml = (await response.json()) as { body: string | { type: 'Buffer'; data: number[] } };
  return typeof eml.body === 'string' ? eml.body : Buffer.from(eml.body.data).toString('utf8');
}

/** A header field of a raw message, unfolded. */
const headerOf = (raw: string, name: string) =>
  new RegExp(`^${name}:[ \\t]*(.*(?:\\r?\\n[ \\t].*)*)`, 'im')
    .exec(raw.split(/\r?\n\r?\n/)[0])?.[1]
    .replace(/\r?\n[ \t]+/g, ' ')
    .trim();

describe('what the player does stops the next marketing email', () => {
  test("a one-click POST on a received mail's List-Unsubscribe address answers 200, and the next marketing email is refused", async () => {
    const { id, address } = await player(plain, { urm_consent_email: true });
    const sent = await emailFromConsole(plain, id);
    expect(sent.body.message_id).toEqual(expect.any(String));
    const raw = await rawMessage(sent.body.message_id);
    const url = /^<(https?:\/\/[^>]+)>$/.exec(headerOf(raw, 'List-Unsubscribe') ?? '')?.[1];
    expect(headerOf(raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(url).toEqual(expect.stringContaining('/unsubscribe/'));

    // RFC 8058: the mailbox provider posts, with no cookie and no session.
    const unsubscribed = await fetch(url as string, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(unsubscribed.status).toBe(200);
    await eventually(
      () => request(stack.baseUrl, 'GET', `/profiles/${id}?app_id=${plain.appId}`, { key: plain.serverKey }),
      (profile) => profile.body?.attributes?.urm_consent_email === false,
      'the unsubscribe to be applied',
    );
    const next = await emailFromConsole(plain, id);

    expect(next.body).toMatchObject({ suppressed: 'no_consent' });
    expect(await mailTo(address)).toHaveLength(1);
  });

  test('a mail to the bounce simulator leaves the profile suppressed, and the next marketing email is refused', async () => {
    const bounce = 'bounce@simulator.amazonses.com';
    const { id } = await player(plain, { urm_consent_email: true });
    await request(stack.baseUrl, 'POST', '/profiles', {
      key: plain.serverKey,
      body: [{ app_id: plain.appId, profile_id: id, urm_date_time: new Date().toISOString(), email: bounce }],
    });
    await eventually(
      () => request(stack.baseUrl, 'GET', `/profiles/${id}?app_id=${plain.appId}`, { key: plain.serverKey }),
      (profile) => profile.body?.attributes?.email === bounce,
      'the new address',
    );

    const first = await emailFromConsole(plain, id);
    expect(first.body.message_id).toEqual(expect.any(String));
    await eventually(
      () => request(stack.baseUrl, 'GET', `/profiles/${id}?app_id=${plain.appId}`, { key: plain.serverKey }),
      (profile) => profile.body?.attributes?.urm_email_suppressed === 'bounce',
      'the bounce to suppress the address',
    );
    const next = await emailFromConsole(plain, id);

    expect(next.body).toMatchObject({ suppressed: 'suppressed' });
    // Not even an account message goes to a bounced address.
    const account = await emailFromConsole(plain, id, { purpose: 'transactional', reason: 'deposit receipt' });
    expect(account.body).toMatchObject({ suppressed: 'suppressed' });
  });
});
