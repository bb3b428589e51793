import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { repoRoot, testStack, type TestStack } from '../support/local-stack';

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
    assert.equal((read[1] as unknown as { events: { event: string }[] }).events[0].event, 'deposit');
  });
});
