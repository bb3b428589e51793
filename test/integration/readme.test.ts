import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { request } from '../support/http';
import { repoRoot, testStack, type TestStack } from '../support/local-stack';
import { until } from '../support/profiles';

/** The shell block that follows `<!-- readme-test: name -->` in the README. */
function readmeBlock(name: string): string {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const match = new RegExp(`<!-- readme-test: ${name} -->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(readme);
  assert.ok(match, `README has no readme-test block "${name}"`);
  return match[1];
}

let stack: TestStack;
let cwd: string;
before(async () => {
  stack = await testStack();
  // A checkout whose .urm/dev.json is the test stack's, as after `npm start`.
  cwd = mkdtempSync(join(tmpdir(), 'urm-readme-'));
  mkdirSync(join(cwd, '.urm'));
  writeFileSync(join(cwd, '.urm', 'dev.json'), JSON.stringify(stack.dev));
});
after(() => rmSync(cwd, { recursive: true, force: true }));

/** Runs README blocks as pasted, only pointed at the test stack's port. */
function runAsPasted(script: string): string[] {
  const pointed = script.replaceAll('http://127.0.0.1:3000', stack.baseUrl);
  return execFileSync('bash', ['-euo', 'pipefail', '-c', pointed], { cwd, encoding: 'utf8' }).trim().split('\n');
}

describe('the README', () => {
  test('curl examples for /events and /profiles answer write receipts with sequence numbers', () => {
    const [events, profiles] = runAsPasted(`${readmeBlock('events')}\necho\n${readmeBlock('profiles')}\necho`);

    for (const output of [events, profiles]) {
      const receipt = JSON.parse(output);
      assert.equal(receipt.FailedRecordCount, 0);
      assert.equal(receipt.Records.length, 1);
      assert.match(receipt.Records[0].SequenceNumber, /^\d{20,}$/);
      assert.match(receipt.Records[0].ShardId, /^shardId-\d{12}$/);
    }
  });

  test('read-back examples show the profile and its timeline once the consumers have applied them', async () => {
    const script = `${readmeBlock('events')}\necho\n${readmeBlock('profiles')}\necho\n${readmeBlock('read')}`;
    const [, , profile, timeline] = runAsPasted(script).map((line) => JSON.parse(line));
    assert.equal(profile.profile_id, 'player-42');
    assert.ok(Array.isArray(timeline.events));

    // The consumers apply within a second: the read block alone, a moment later, shows the writes.
    let read: { attributes?: Record<string, unknown> }[] = [];
    for (let i = 0; i < 50; i++) {
      read = runAsPasted(`${readmeBlock('events').split('\n').slice(0, 2).join('\n')}\n${readmeBlock('read')}`).map((l) => JSON.parse(l));
      if (typeof read[0].attributes?.deposits === 'number' && (read[0].attributes.deposits as number) >= 25.5) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(read[0].attributes?.country, 'MT');
    assert.deepEqual(read[0].attributes?.games, ['blackjack']);
    // Other README examples put their own events on player-42 too.
    assert.ok((read[1] as unknown as { events: { event: string }[] }).events.some((e) => e.event === 'deposit'));
  });

  test('the send_email example sends a mail that the local SES store and its web view show', async () => {
    const keys = readmeBlock('events').split('\n').slice(0, 2).join('\n');
    const mailUrl = stack.dev.mail_url!;

    const [answer] = runAsPasted(`${keys}\n${readmeBlock('email')}`);
    const [store] = runAsPasted(readmeBlock('mail').replaceAll('http://127.0.0.1:3003', mailUrl));

    const messageId = JSON.parse(answer).message_id;
    const mail = JSON.parse(store).emails.find((sent: { messageId: string }) => sent.messageId === messageId);
    assert.ok(mail, `mail ${messageId} is in the local SES store`);
    assert.equal(mail.subject, 'Your weekly bonus');
    assert.deepEqual(mail.destination.to, ['"Ann Lee" <ann@example.com>']);
    assert.deepEqual(mail.replyTo, ['"Support" <support@example.com>']);
    assert.equal(mail.body.html, '<p>Your bonus is <b>ready</b>.</p>');
    assert.equal(mail.body.text, 'Your bonus is ready.');
    const webView = await fetch(mailUrl);
    assert.equal(webView.status, 200);
    assert.match(await webView.text(), /<title>aws-ses-v2-local viewer<\/title>/);
  });

  test('the send_push example answers a notification id and what it sent: player-42 has no browser yet', async () => {
    const keys = readmeBlock('events').split('\n').slice(0, 2).join('\n');
    runAsPasted(`${keys}\n${readmeBlock('profiles')}`);
    await until(
      () => request(stack.baseUrl, 'GET', `/profiles/player-42?app_id=${stack.dev.app_id}`, { key: stack.dev.server_key }),
      (response) => response.status === 200,
      'player-42 to exist',
    );

    const [answer] = runAsPasted(`${keys}\n${readmeBlock('push')}`);

    const body = JSON.parse(answer);
    assert.match(body.notification_id, /^[0-9a-f-]{36}$/);
    assert.deepEqual({ ...body, notification_id: '…' }, { notification_id: '…', sent: 0, failed: 0, removed: 0 });
  });
});
