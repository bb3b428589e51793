import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { before, describe, test } from 'node:test';
import { createApp } from '../../functions/shared/back-office/apps';
import { createChannel } from '../../functions/shared/back-office/channels';
import { issueKey } from '../../functions/shared/back-office/keys';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { request } from '../support/http';
import { repoRoot, testStack, type TestStack } from '../support/local-stack';
import { mailWithId, mailWithSubject } from '../support/mail';
import { readTimeline, until } from '../support/profiles';

let stack: TestStack;
before(async () => {
  stack = await testStack();
});

const unique = (name: string) => `${name} ${randomUUID()}`;

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
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'bin/admin.ts', '--data-dir', stack.dataDir, '--json', ...args],
    { cwd: repoRoot, env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' } },
  );
  return JSON.parse(stdout);
}

/** Sent requests that must not send: the subject they carried is nowhere in the store. */
async function assertNothingSent(subject: string): Promise<void> {
  assert.deepEqual(await mailWithSubject(stack, subject), []);
}

describe('send_email through the local stack', () => {
  test('delivers to the local SES with the subject, named recipients, reply-to and both bodies', async () => {
    const body = email();

    const response = await send(body);

    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.deepEqual(Object.keys(response.body), ['message_id']);
    const mail = await mailWithId(stack, response.body.message_id);
    assert.ok(mail, 'the mail is in the local SES store');
    assert.equal(mail.subject, body.subject);
    assert.equal(mail.from, '"urm demo" <demo@example.com>');
    assert.deepEqual(mail.destination.to, ['"Ann Lee" <ann@example.com>', '=?UTF-8?B?Wm/DqyDDmHJzdGVk?= <zoe@example.com>']);
    assert.deepEqual(mail.replyTo, ['"Help desk" <help@example.com>']);
    assert.equal(mail.body.html, body.html_body);
    assert.equal(mail.body.text, body.text_body);
  });

  test("puts urm_email_sent on the profile's timeline with the message id, channel and subject", async () => {
    const body = email();

    const response = await send(body);
    assert.equal(response.status, 200);

    const events = await until(() => readTimeline(stack, body.profile_id), (found) => found.length > 0, 'the urm_email_sent event');
    assert.equal(events.length, 1);
    assert.equal(events[0].event, 'urm_email_sent');
    assert.deepEqual(events[0].attributes, {
      message_id: response.body.message_id,
      channel_id: stack.dev.channel_id,
      subject: body.subject,
    });
  });

  test('sends from the given sender instead of the channel default', async () => {
    const response = await send(email({ from_email: 'vip@example.com', from_name: 'VIP desk', html_body: undefined }));

    assert.equal(response.status, 200);
    const mail = await mailWithId(stack, response.body.message_id);
    assert.equal(mail?.from, '"VIP desk" <vip@example.com>');
    assert.equal(mail?.body.html, undefined);
  });

  test('answers 404 for an unknown channel, and sends nothing', async () => {
    const body = email({ channel_id: 'ch_0000000000000000' });

    const response = await send(body);

    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: 'channel not found' });
    await assertNothingSent(body.subject);
  });

  test('answers 400 to a header injection attempt, and sends nothing', async () => {
    const body = email({ to_addresses: [{ email: 'ann@example.com', name: 'Ann\r\nBcc: everyone@example.com' }] });

    const response = await send(body);

    assert.equal(response.status, 400);
    assert.deepEqual(response.body, {
      message: 'request body is invalid',
      errors: ['to_addresses[0].name must be free of line breaks and control characters'],
    });
    await assertNothingSent(body.subject);
  });

  test('answers 403 to the server key, and sends nothing', async () => {
    const body = email();

    const response = await send(body, stack.dev.server_key);

    assert.equal(response.status, 403);
    assert.deepEqual(response.body, { message: 'Forbidden' });
    await assertNothingSent(body.subject);
  });

  test("answers 404 for another application's channel, and 403 for another application's app_id", async () => {
    const office = localBackOffice(localClients(stack.endpoints).document);
    const other = await createApp(office, { name: unique('Other casino') });
    const otherKey = (await issueKey(office, other.app_id, 'comms')).key;
    const otherChannel = await createChannel(office, { appId: other.app_id, name: 'Other', fromEmail: 'other@example.com', fromName: 'Other' });
    const foreignChannel = email({ channel_id: otherChannel.channel_id });
    const foreignApp = email();

    const notFound = await send(foreignChannel);
    const forbidden = await send(foreignApp, otherKey);

    assert.equal(notFound.status, 404);
    assert.equal(forbidden.status, 403);
    await assertNothingSent(foreignChannel.subject);
    await assertNothingSent(foreignApp.subject);
  });
});

describe('email channels with the admin command line', () => {
  test('a created channel sends with its sender; disabled it answers 404 and sends nothing; enabled again it sends', async () => {
    const created = await admin(
      'channel', 'create', '--app', stack.dev.app_id, '--name', 'VIP news', '--from-email', 'vip@example.com', '--from-name', 'VIP Lounge',
    );
    assert.match(created.channel_id, /^ch_[0-9a-f]{16}$/);
    assert.equal(created.enabled, true);
    const listed = await admin('channel', 'list', '--app', stack.dev.app_id);
    assert.ok(listed.some((channel: { channel_id: string }) => channel.channel_id === created.channel_id));

    const first = await send(email({ channel_id: created.channel_id }));
    assert.equal(first.status, 200);
    assert.equal((await mailWithId(stack, first.body.message_id))?.from, '"VIP Lounge" <vip@example.com>');

    const disabled = await admin('channel', 'disable', '--app', stack.dev.app_id, created.channel_id);
    assert.equal(disabled.enabled, false);
    const whileDisabled = email({ channel_id: created.channel_id });
    const refused = await send(whileDisabled);
    assert.equal(refused.status, 404);
    assert.deepEqual(refused.body, { message: 'channel not found' });
    await assertNothingSent(whileDisabled.subject);

    await admin('channel', 'enable', '--app', stack.dev.app_id, created.channel_id);
    const again = await send(email({ channel_id: created.channel_id }));
    assert.equal(again.status, 200);
  });

  test('refuses a channel whose sender is not a valid address', async () => {
    await assert.rejects(
      admin('channel', 'create', '--app', stack.dev.app_id, '--name', 'Bad', '--from-email', 'not-an-address', '--from-name', 'Bad'),
      (error: { stderr: string }) => /from email must be a valid email address/.test(error.stderr),
    );
  });
});

describe('the comms key', () => {
  // DECISIONS.md: the comms scope is for send_email and send_push, and nothing else.
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

      assert.equal(response.status, 403);
      assert.deepEqual(response.body, { message: 'Forbidden' });
    });
  }
});
