import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { demoMoneySettings } from '../../lib/local/demo-app';
import { request } from '../support/http';
import { identitySecretOf } from '../support/identity';
import { repoRoot, testStack, type TestStack } from '../support/local-stack';
import { until } from '../support/profiles';
import { readmeBlock, readmeCheckout, readmeVariables, runProcess, type ReadmeCheckout } from '../support/readme';

let stack: TestStack;
let checkout: ReadmeCheckout;
beforeAll(async () => {
  stack = await testStack();
  checkout = readmeCheckout(stack, 'main');
});
afterAll(() => checkout.remove());

describe('the README', () => {
  test('curl examples for /events and /profiles answer write receipts with sequence numbers', async () => {
    const [events, profiles] = await checkout.run(`${readmeBlock('events')}\necho\n${readmeBlock('profiles')}\necho`);

    for (const output of [events, profiles]) {
      const receipt = JSON.parse(output);
      expect(receipt.FailedRecordCount).toBe(0);
      expect(receipt.Records.length).toBe(1);
      expect(receipt.Records[0].SequenceNumber).toMatch(/^\d{20,}$/);
      expect(receipt.Records[0].ShardId).toMatch(/^shardId-\d{12}$/);
    }
  });

  test('the event the README sends is one the demo application maps as a deposit (names are case-sensitive)', () => {
    const sent = /"event":"([^"]+)"/.exec(readmeBlock('events'))?.[1];

    expect(sent && (demoMoneySettings.money_events as Record<string, string>)[sent]).toBe('deposit');
  });

  test('read-back examples show the profile and its timeline once the consumers have applied them', async () => {
    const script = `${readmeBlock('events')}\necho\n${readmeBlock('profiles')}\necho\n${readmeBlock('read')}`;
    const [, , profile, timeline] = (await checkout.run(script)).map((line) => JSON.parse(line));
    expect(profile.profile_id).toBe('player-42');
    expect(Array.isArray(timeline.events)).toBeTruthy();

    // The consumers apply within a second: the read block alone, a moment later, shows the writes.
    let read: { attributes?: Record<string, unknown> }[] = [];
    for (let i = 0; i < 50; i++) {
      read = (await checkout.run(`${readmeVariables()}\n${readmeBlock('read')}`)).map((l) => JSON.parse(l));
      if (typeof read[0].attributes?.deposits === 'number' && (read[0].attributes.deposits as number) >= 25.5) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // urm_add of the README's deposit: other examples may add to player-42 as well, never take away.
    expect(read[0].attributes?.deposits).toBeGreaterThanOrEqual(25.5);
    expect(read[0].attributes?.country).toBe('MT');
    expect(read[0].attributes?.games).toEqual(['blackjack']);
    // Other README examples put their own events on player-42 too.
    expect((read[1] as unknown as { events: { event: string }[] }).events.some((e) => e.event === 'Deposit')).toBeTruthy();
  });

  test('the send_email example sends a mail that the local SES store and its web view show', async () => {
    const keys = readmeVariables();
    const mailUrl = stack.dev.mail_url!;

    const [answer] = await checkout.run(`${keys}\n${readmeBlock('email')}`);
    const [store] = await checkout.run(readmeBlock('mail').replaceAll('http://127.0.0.1:3003', mailUrl));

    const messageId = JSON.parse(answer).message_id;
    const mail = JSON.parse(store).emails.find((sent: { messageId: string }) => sent.messageId === messageId);
    expect(mail).toBeTruthy();
    expect(mail.subject).toBe('Your weekly bonus');
    expect(mail.destination.to).toEqual(['"Ann Lee" <ann@example.com>']);
    expect(mail.replyTo).toEqual(['"Support" <support@example.com>']);
    expect(mail.body.html).toBe('<p>Your bonus is <b>ready</b>.</p>');
    expect(mail.body.text).toBe('Your bonus is ready.');
    const webView = await fetch(mailUrl);
    expect(webView.status).toBe(200);
    expect(await webView.text()).toMatch(/<title>aws-ses-v2-local viewer<\/title>/);
  });

  test('the send_push example answers a notification id and what it sent: player-42 has no browser yet', async () => {
    const keys = readmeVariables();
    await checkout.run(`${keys}\n${readmeBlock('profiles')}`);
    await until(
      () => request(stack.baseUrl, 'GET', `/profiles/player-42?app_id=${stack.dev.app_id}`, { key: stack.dev.server_key }),
      (response) => response.status === 200,
      'player-42 to exist',
    );

    const [answer] = await checkout.run(`${keys}\n${readmeBlock('push')}`);

    const body = JSON.parse(answer);
    expect(body.notification_id).toMatch(/^[0-9a-f-]{36}$/);
    expect({ ...body, notification_id: '…' }).toEqual({ notification_id: '…', sent: 0, failed: 0, removed: 0, unsent: 0, skipped: 0 });
  });

  test("the identity snippet computes a proof the service takes for the browser key's write to that profile", async () => {
    const match = /<!-- readme-test: identity -->\s*```js\n([\s\S]*?)```/.exec(readFileSync(join(repoRoot, 'README.md'), 'utf8'));
    expect(match).toBeTruthy();
    const profileId = `player-${randomUUID()}`;

    // The snippet as pasted into a server module that knows the signed-in player's id.
    const program = `const profileId = ${JSON.stringify(profileId)};\n${match![1]}\nconsole.log(profileIdHash);`;
    const env = { ...process.env, URM_IDENTITY_SECRET: await identitySecretOf(stack) };
    const proof = (await runProcess(process.execPath, ['--input-type=module', '-e', program], { cwd: checkout.cwd, env, encoding: 'utf8' })).stdout.trim();
    const write = (hash?: string) =>
      request(stack.baseUrl, 'POST', `/profiles?app_id=${stack.dev.app_id}`, {
        key: stack.dev.browser_key,
        headers: { Origin: new URL(stack.baseUrl).origin },
        body: [
          {
            app_id: stack.dev.app_id,
            profile_id: profileId,
            urm_date_time: '2026-11-21T10:00:00Z',
            urm_set: { urm_receives_notifications: true },
            ...(hash ? { urm_profile_id_hash: hash } : {}),
          },
        ],
      });

    expect(proof).toMatch(/^[0-9a-f]{64}$/);
    expect((await write(proof)).status).toBe(200);
    expect((await write()).status).toBe(403);
  });
});
