import { commandLineActor } from '../../functions/domain/audit';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { createApp } from '../../functions/back-office/apps';
import { createChannel } from '../../functions/back-office/channels';
import { issueKey } from '../../functions/back-office/keys';
import { assignSender } from '../../functions/back-office/senders';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { request } from '../support/http';
import { adminCli, testStack, type TestStack } from '../support/local-stack';
import { mailWithId, mailWithSubject } from '../support/mail';
import { readTimeline, until } from '../support/profiles';

let stack: TestStack;
beforeAll(async () => {
  stack = await testStack();
});

const unique = (name: string) => `${name} ${randomUUID()}`;
/** A sender domain no other test uses: senders are one application's each. */
const newDomain = () => `mail-${randomUUID().slice(0, 8)}.example`;

function email(fields: Record<string, unknown> = {}) {
  return {
    app_id: stack.dev.app_id,
    channel_id: stack.dev.channel_id,
    profile_id: `mail-${randomUUID()}`,
    to_addresses: [
      { email: 'ann@example.com', name: 'Ann Lee' },
      { email: 'zoe@example.com', name: 'Zoë Ørsted' },
    ],
    reply_to: 'help@example.com',
    reply_to_name: 'Help desk',
    subject: unique('Your weekly bonus'),
    html_body: '<p>Your bonus is <b>ready</b>.</p>',
    text_body: 'Your bonus is ready.',
    ...fields,
  };
}

const send = (body: unknown, key = stack.dev.comms_key) => request(stack.baseUrl, 'POST', '/api/send_email', { key, body });

/** `npm run admin -- …` against the test stack, answering its --json output. */
async function admin(...args: string[]): Promise<any> {
  return JSON.parse(await adminCli(stack.dataDir, args));
}

/** Sent requests that must not send: the subject they carried is nowhere in the store. */
async function assertNothingSent(subject: string): Promise<void> {
  expect(await mailWithSubject(stack, subject)).toEqual([]);
}

describe('send_email through the local stack', () => {
  test('delivers to the local SES with the subject, named recipients, reply-to and both bodies', async () => {
    const body = email();

    const response = await send(body);

    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['message_id']);
    const mail = await mailWithId(stack, response.body.message_id);
    expect(mail).toBeTruthy();
    expect(mail!.subject).toBe(body.subject);
    expect(mail!.from).toBe('"urm demo" <demo@example.com>');
    expect(mail!.destination.to).toEqual(['"Ann Lee" <ann@example.com>', '=?UTF-8?B?Wm/DqyDDmHJzdGVk?= <zoe@example.com>']);
    expect(mail!.replyTo).toEqual(['"Help desk" <help@example.com>']);
    expect(mail!.body.html).toBe(body.html_body);
    expect(mail!.body.text).toBe(body.text_body);
  });

  test("puts urm_email_sent on the profile's timeline with the message id, channel and subject", async () => {
    const body = email();

    const response = await send(body);
    expect(response.status).toBe(200);

    const timeline = await until(
      () => readTimeline(stack, body.profile_id),
      (found) => found.some((event) => event.event === 'urm_email_sent'),
      'the urm_email_sent event',
    );
    // SES's deliveries (urm_email_delivered, one per recipient) follow it on the same timeline.
    const events = timeline.filter((event) => event.event === 'urm_email_sent');
    expect(events.length).toBe(1);
    expect(events[0].event).toBe('urm_email_sent');
    expect(events[0].attributes).toEqual({
      message_id: response.body.message_id,
      channel_id: stack.dev.channel_id,
      subject: body.subject,
    });
  });

  test("sends from the given sender instead of the channel default, when it is the channel's own address", async () => {
    const response = await send(email({ from_email: 'demo@EXAMPLE.com', from_name: 'VIP desk', html_body: undefined }));

    expect(response.status).toBe(200);
    const mail = await mailWithId(stack, response.body.message_id);
    expect(mail?.from).toBe('"VIP desk" <demo@example.com>');
    expect(mail?.body.html).toBe(undefined);
  });

  test("answers 400 naming from_email to another tenant's sender, or another address at the channel's domain, and sends nothing", async () => {
    for (const address of ['security@bank.example', 'vip@example.com']) {
      const body = email({ from_email: address });

      const response = await send(body);

      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: 'request body is invalid', errors: ["from_email must be the channel's address (demo@example.com)"] });
      await assertNothingSent(body.subject);
    }
  });

  test('sends from any address at the domain a channel names, and from no other domain', async () => {
    const office = localBackOffice(localClients(stack.endpoints).document);
    const domain = newDomain();
    await assignSender(office, commandLineActor, stack.dev.app_id, { domain });
    const channel = await createChannel(office, commandLineActor, {
      appId: stack.dev.app_id,
      name: 'VIP desk',
      fromEmail: `news@${domain}`,
      fromName: 'News',
      fromDomain: domain.toUpperCase(),
    });
    const elsewhere = email({ channel_id: channel.channel_id, from_email: 'security@bank.example' });

    const response = await send(email({ channel_id: channel.channel_id, from_email: `vip@${domain}`, from_name: 'VIP desk', html_body: undefined }));
    const refused = await send(elsewhere);

    expect(response.status).toBe(200);
    const mail = await mailWithId(stack, response.body.message_id);
    expect(mail?.from).toBe(`"VIP desk" <vip@${domain}>`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([`from_email must be the channel's address or an address at ${domain}`]);
    await assertNothingSent(elsewhere.subject);
  });

  test('answers 404 for an unknown channel, and sends nothing', async () => {
    const body = email({ channel_id: 'ch_0000000000000000' });

    const response = await send(body);

    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'channel not found' });
    await assertNothingSent(body.subject);
  });

  test('answers 400 to a header injection attempt, and sends nothing', async () => {
    const body = email({ to_addresses: [{ email: 'ann@example.com', name: 'Ann\r\nBcc: everyone@example.com' }] });

    const response = await send(body);

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      message: 'request body is invalid',
      errors: ['to_addresses[0].name must be free of line breaks and control characters'],
    });
    await assertNothingSent(body.subject);
  });

  test('answers 403 to the server key, and sends nothing', async () => {
    const body = email();

    const response = await send(body, stack.dev.server_key);

    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: 'Forbidden' });
    await assertNothingSent(body.subject);
  });

  test("answers 404 for another application's channel, and 403 for another application's app_id", async () => {
    const office = localBackOffice(localClients(stack.endpoints).document);
    const other = await createApp(office, { name: unique('Other casino') });
    const otherKey = (await issueKey(office, other.app_id, commandLineActor, 'comms')).key;
    const otherSender = `other@${newDomain()}`;
    await assignSender(office, commandLineActor, other.app_id, { email: otherSender });
    const otherChannel = await createChannel(office, commandLineActor, {
      appId: other.app_id,
      name: 'Other',
      fromEmail: otherSender,
      fromName: 'Other',
    });
    const foreignChannel = email({ channel_id: otherChannel.channel_id });
    const foreignApp = email();

    const notFound = await send(foreignChannel);
    const forbidden = await send(foreignApp, otherKey);

    expect(notFound.status).toBe(404);
    expect(forbidden.status).toBe(403);
    await assertNothingSent(foreignChannel.subject);
    await assertNothingSent(foreignApp.subject);
  });
});

describe('email channels with the admin command line', () => {
  test('a created channel sends with its sender; disabled it answers 404 and sends nothing; enabled again it sends', async () => {
    const vip = `vip@${newDomain()}`;
    await admin('sender', 'assign', '--app', stack.dev.app_id, '--email', vip);
    const created = await admin('channel', 'create', '--app', stack.dev.app_id, '--name', 'VIP news', '--from-email', vip, '--from-name', 'VIP Lounge');
    expect(created.channel_id).toMatch(/^ch_[0-9a-f]{16}$/);
    expect(created.enabled).toBe(true);
    const listed = await admin('channel', 'list', '--app', stack.dev.app_id);
    expect(listed.some((channel: { channel_id: string }) => channel.channel_id === created.channel_id)).toBeTruthy();

    const first = await send(email({ channel_id: created.channel_id }));
    expect(first.status).toBe(200);
    expect((await mailWithId(stack, first.body.message_id))?.from).toBe(`"VIP Lounge" <${vip}>`);

    const disabled = await admin('channel', 'disable', '--app', stack.dev.app_id, created.channel_id);
    expect(disabled.enabled).toBe(false);
    const whileDisabled = email({ channel_id: created.channel_id });
    const refused = await send(whileDisabled);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ message: 'channel not found' });
    await assertNothingSent(whileDisabled.subject);

    await admin('channel', 'enable', '--app', stack.dev.app_id, created.channel_id);
    const again = await send(email({ channel_id: created.channel_id }));
    expect(again.status).toBe(200);
  });

  test('update --domain lets a channel send from any address at its domain, --no-domain from its address only', async () => {
    const domain = newDomain();
    await admin('sender', 'assign', '--app', stack.dev.app_id, '--domain', domain);
    const created = await admin(
      'channel',
      'create',
      '--app',
      stack.dev.app_id,
      '--name',
      'Promotions',
      '--from-email',
      `promo@${domain}`,
      '--from-name',
      'Promotions',
    );
    const asVip = () => send(email({ channel_id: created.channel_id, from_email: `vip@${domain}` }));
    expect((await asVip()).status).toBe(400);

    const widened = await admin('channel', 'update', '--app', stack.dev.app_id, '--domain', domain, created.channel_id);
    expect(widened.from_domain).toBe(domain);
    expect((await asVip()).status).toBe(200);

    const narrowed = await admin('channel', 'update', '--app', stack.dev.app_id, '--no-domain', created.channel_id);
    expect(narrowed.from_domain).toBe(undefined);
    expect((await asVip()).status).toBe(400);
  });

  test("refuses a domain that is not the channel address's own", async () => {
    for (const domain of ['bank.example', 'mail.example.com']) {
      await expect(
        admin('channel', 'create', '--app', stack.dev.app_id, '--name', 'Bad', '--from-email', 'promo@example.com', '--from-name', 'Bad', '--domain', domain),
      ).rejects.toMatchObject({ stderr: expect.stringMatching(/domain must be example\.com, the domain of the channel's from email/) });
    }
  });

  test('refuses a channel whose sender is not a valid address', async () => {
    await expect(
      admin('channel', 'create', '--app', stack.dev.app_id, '--name', 'Bad', '--from-email', 'not-an-address', '--from-name', 'Bad'),
    ).rejects.toMatchObject({ stderr: expect.stringMatching(/from email must be a valid email address/) });
  });
});

describe('the comms key', () => {
  // docs/api.md, "Keys": the comms scope is for send_email and send_push, and nothing else.
  const others: [string, string, (stack: TestStack) => unknown][] = [
    ['POST', '/profiles', (s) => [{ app_id: s.dev.app_id, profile_id: 'p', urm_date_time: '2026-11-21T10:00:00Z' }]],
    ['POST', '/events', (s) => [{ app_id: s.dev.app_id, profile_id: 'p', event: 'x', urm_date_time: '2026-11-21T10:00:00Z' }]],
    ['GET', '/profiles/p?app_id=', () => undefined],
    ['GET', '/profiles/p/events?app_id=', () => undefined],
  ];
  for (const [method, path, body] of others) {
    test(`is refused by ${method} ${path.split('?')[0]}`, async () => {
      const target = path.endsWith('=') ? `${path}${stack.dev.app_id}` : path;

      const response = await request(stack.baseUrl, method, target, { key: stack.dev.comms_key, body: body(stack) });

      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: 'Forbidden' });
    });
  }
});
