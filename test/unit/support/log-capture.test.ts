/** What the shared stack's process (test/support/jest/stack-process.ts) does with its output: all of it to the file, only what matters to the console. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@jest/globals';
import { captureProcessOutput, worthShowing } from '../../support/log-capture';

const line = (level: string) => JSON.stringify({ level, message: 'm', timestamp: '2026-11-21T10:00:00.000Z' });

test('the console shows warnings, errors and plain text, not INFO or DEBUG lines', () => {
  expect(['DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL'].map((level) => worthShowing(line(level)))).toEqual([false, false, true, true, true]);
  expect(worthShowing('local stack for the tests at http://127.0.0.1:3000')).toBe(true);
  expect(worthShowing('{not json')).toBe(true);
});

test('the file gets everything written to stdout and stderr, in order; the console decides line by line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'urm-capture-'));
  const offered: string[] = [];
  // Synchronous from start to stop, and nothing shown: the test runner's own output is never taken.
  const capture = captureProcessOutput(join(dir, 'stack.log'), (text) => {
    offered.push(text);
    return false;
  });
  try {
    process.stdout.write(`${line('INFO')}\n{"level":"WA`);
    process.stdout.write('RN"}\n');
    process.stderr.write('plain\n');
    capture.write('[stack] poller started');
  } finally {
    capture.stop();
  }

  const written = readFileSync(join(dir, 'stack.log'), 'utf8');
  rmSync(dir, { recursive: true, force: true });
  expect(written).toBe(`${line('INFO')}\n{"level":"WARN"}\nplain\n[stack] poller started\n`);
  expect(offered).toEqual([line('INFO'), '{"level":"WARN"}', 'plain']);
});
