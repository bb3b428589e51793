/**
 * Unsubscribe links over HTTP (docs/api.md, "Unsubscribe"), on an application
 * of this file's own: the link a marketing mail carries, posted as a mail
 * client's one-click does, and what the integrator then reads back.
 */
import { randomUUID } from 'node:crypto';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { SesMailer } from '../../functions/adapters/ses-mailer';
import { newUnsubscribeKey, signUnsubscribeToken } from '../../functions/domain/unsubscribe-token';
import { withUnsubscribe } from '../../functions/messaging/unsubscribe';
import { testStack, type TestStack } from '../support/local-stack';
import { mailWithId } from '../support/mail';
import { request } from '../support/http';
import { until } from '../support/profiles';
import { unsubscribeApp, type UnsubscribeApp } from '../support/unsubscribe';

let stack: TestStack;
let app: UnsubscribeApp;
let link: UnsubscribeApp['link'];
let profileOf: UnsubscribeApp['profileOf'];
let eventsOf: UnsubscribeApp['eventsOf'];
let consentingPlayer: UnsubscribeApp['consentingPlayer'];

beforeAll(async () => {
  stack = await testStack();
  app = await unsubscribeApp(stack, `Unsubscribe ${randomUUID()}`);
  ({ link, profileOf, eventsOf, consentingPlayer } = app);
});

const post = (url: string, body = 'List-Unsubscribe=One-Click') =>
  fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });

/** Applies a marker after whatever came before it on the player's shard, then answers the attributes without it. */
async function settled(profileId: string): Promise<Record<string, unknown> | undefined> {
  const marker = randomUUID();
  await request(stack.baseUrl, 'POST', '/profiles', {
    key: app.serverKey,
    body: [{ app_id: app.appId, profile_id: profileId, urm_date_time: new Date().toISOString(), urm_set: { marker } }],
  });
  const attributes = await until(
    () => profileOf(profileId),
    (a) => a?.marker === marker,
    `${profileId}'s marker`,
  );
  const { marker: _marker, ...rest } = attributes ?? {};
  return rest;
}

describe('the one-click POST on a mail’s unsubscribe link', () => {
  test('answers 200, and the profile shows urm_consent_email false and urm_unsubscribed on the timeline within seconds', async () => {
    const id = await consentingPlayer();

    const response = await post(await link(id));

    expect(response.status).toBe(200);
    await until(
      () => profileOf(id),
      (attributes) => attributes?.urm_consent_email === false,
      'consent to be off',
    );
    const events = await until(
      () => eventsOf(id),
      (list) => list.some((event) => event.event === 'urm_unsubscribed'),
      'urm_unsubscribed',
    );
    expect(events.filter((event) => event.event === 'urm_unsubscribed')).toEqual([expect.objectContaining({ attributes: { method: 'one_click' } })]);
  });

  test("of a topic's link adds the topic to urm_unsubscribed_topics and keeps consent", async () => {
    const id = await consentingPlayer({ urm_unsubscribed_topics: ['casino'] });

    expect((await post(await link(id, 'sports'))).status).toBe(200);

    const attributes = await until(
      () => profileOf(id),
      (a) => (a?.urm_unsubscribed_topics as string[] | undefined)?.includes('sports') === true,
      'the topic',
    );
    expect(attributes).toMatchObject({ urm_consent_email: true, urm_unsubscribed_topics: ['casino', 'sports'] });
  });

  test('a second POST is harmless: 200 again, and one urm_unsubscribed on the timeline', async () => {
    const id = await consentingPlayer();
    const url = await link(id);

    const answers = [await post(url), await post(url, '')];
    await settled(id);
    const later = await post(url);
    await settled(id);

    expect([...answers, later].map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect((await eventsOf(id)).filter((event) => event.event === 'urm_unsubscribed')).toHaveLength(1);
  });

  test("an old link still works after the player's next mail carried a new one", async () => {
    const id = await consentingPlayer();
    const old = await link(id, 'vip');
    await link(id, 'sports');

    expect((await post(old)).status).toBe(200);
    await until(
      () => profileOf(id),
      (a) => (a?.urm_unsubscribed_topics as string[] | undefined)?.includes('vip') === true,
      'the old link to apply',
    );
  });
});

describe('a marketing mail through the local SES', () => {
  test('is stored with List-Unsubscribe and List-Unsubscribe-Post, and posting its List-Unsubscribe address unsubscribes', async () => {
    const id = await consentingPlayer();
    const { endpoints } = stack;
    const ses = new SESv2Client({
      endpoint: endpoints.ses_endpoint,
      region: endpoints.region,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const mail = { from: 'news@example.com', to: [`${id}@example.com`], replyTo: [], subject: 'Weekend bonus', html: '<p>Hi</p>', text: 'Hi', tags: {} };

    const messageId = await new SesMailer(ses).send(withUnsubscribe(mail, await link(id)));
    const stored = await mailWithId(stack, messageId);
    const header = (name: string) => stored?.headers?.find((field) => field.name.toLowerCase() === name.toLowerCase())?.value;
    const address = /^<(https?:[^>]+)>$/.exec(header('List-Unsubscribe') ?? '')?.[1];

    expect(header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(stored?.body.html).toContain('>Unsubscribe</a>');
    expect(address).toBeDefined();
    expect((await post(address as string)).status).toBe(200);
    await until(
      () => profileOf(id),
      (attributes) => attributes?.urm_consent_email === false,
      'consent to be off',
    );
  });
});

describe('a forged or altered link', () => {
  test('answers 4xx to every kind of bad token, and the profile is unchanged', async () => {
    const id = await consentingPlayer();
    const url = await link(id);
    const token = url.slice(url.lastIndexOf('/') + 1);
    const otherPlayer = `${Buffer.from(JSON.stringify({ v: 1, a: app.appId, p: `${id}-x` })).toString('base64url')}.${token.split('.')[1]}`;
    const forged = signUnsubscribeToken(newUnsubscribeKey(), { appId: app.appId, profileId: id });
    const base = `${new URL(stack.baseUrl).origin}/unsubscribe/`;

    const answers = await Promise.all([forged, otherPlayer, token.slice(0, -2), `${token}x`, 'x'.repeat(2000)].map((bad) => post(`${base}${bad}`)));

    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404]);
    expect(await settled(id)).toMatchObject({ urm_consent_email: true });
    expect((await eventsOf(id)).filter((event) => event.event === 'urm_unsubscribed')).toEqual([]);
  });
});
