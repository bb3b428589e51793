/** The local stack's data directory is its owner's alone (README, "The local stack"): it holds the secrets table's database and the emulators' access key id. */
import { afterEach, expect, test } from '@jest/globals';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { privateDirectory } from '../../../lib/local/stack';

let parent: string;
afterEach(() => rmSync(parent, { recursive: true, force: true }));

test('a data directory found open to others (as .urm was made) is closed to them', () => {
  parent = mkdtempSync(join(tmpdir(), 'urm-private-'));
  const dataDir = join(parent, '.urm');
  mkdirSync(dataDir);
  chmodSync(dataDir, 0o755);

  privateDirectory(dataDir);

  expect(statSync(dataDir).mode & 0o777).toBe(0o700);
});

test('a data directory made for the first time is its owner’s alone', () => {
  parent = mkdtempSync(join(tmpdir(), 'urm-private-'));
  const dataDir = join(parent, 'nested', '.urm');

  privateDirectory(dataDir);

  expect(statSync(dataDir).mode & 0o777).toBe(0o700);
});
