/**
 * The log audit: run after the integration and e2e tests (the last phase of
 * test/support/jest/phased-runner.cjs), over
 * everything the shared local stack wrote during them (URM_TEST_LOG) and the
 * secrets the tests sent and received (URM_TEST_SECRETS). No line may carry an
 * API key, password, sign-in token, session id, email body, push
 * subscription or VAPID private key; every handler line is structured JSON
 * with a request id. The rules are in test/support/log-audit.ts, and
 * test/unit/support/log-audit.test.ts shows they catch planted secrets.
 */
import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, expect, test } from '@jest/globals';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { localClients } from '../../lib/local/stack';
import { localSecretsTable } from '../../functions/manifest/secrets';
import { describeFindings, findSecrets, findUnstructured, MIN_SECRET_LENGTH, type UsedSecret } from '../support/log-audit';
import type { TestStack } from '../support/local-stack';

const logFile = process.env.URM_TEST_LOG;
const secretsFile = process.env.URM_TEST_SECRETS;

let lines: string[];
let recorded: UsedSecret[];
let held: UsedSecret[];

/** What the stack itself holds: the demo application's keys and every VAPID private key in its secret store. */
async function stackSecrets(stack: TestStack): Promise<UsedSecret[]> {
  const { document } = localClients(stack.endpoints);
  const secrets: UsedSecret[] = [
    { kind: 'demo server key', value: stack.dev.server_key },
    { kind: 'demo comms key', value: stack.dev.comms_key },
    { kind: 'demo browser key', value: stack.dev.browser_key },
  ];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await document.send(new ScanCommand({ TableName: localSecretsTable.localName, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) {
      if (typeof item.value === 'string') secrets.push({ kind: `secret ${String(item.name).replace(/.*\//, '')}`, value: item.value });
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return secrets;
}

beforeAll(async () => {
  if (!logFile || !secretsFile || !process.env.URM_TEST_STACK)
    throw new Error('the audit runs after the integration or e2e tests, against the shared stack (npm test)');
  lines = readFileSync(logFile, 'utf8').split('\n');
  recorded = existsSync(secretsFile)
    ? readFileSync(secretsFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as UsedSecret)
    : [];
  held = await stackSecrets(JSON.parse(process.env.URM_TEST_STACK) as TestStack);
});

test('the log holds the structured lines of the run, at every level down to INFO', () => {
  const levels = new Set(lines.filter((line) => line.startsWith('{')).map((line) => (JSON.parse(line) as { level: string }).level));

  expect(levels.has('INFO')).toBeTruthy();
});

test('the audit knows the secrets of the run: the keys the tests sent and the VAPID private keys the stack holds', () => {
  expect(recorded.some((secret) => secret.kind === 'API key')).toBeTruthy();
  expect(held.some((secret) => secret.kind.includes('vapid') && secret.value.length >= MIN_SECRET_LENGTH)).toBeTruthy();
});

test('no log line carries an API key, password, token, session id, email body, push subscription or VAPID private key', () => {
  const findings = findSecrets(lines, [...recorded, ...held]);

  expect(describeFindings(findings, logFile!)).toBe('');
});

test('every handler log line is structured JSON with its level, message, timestamp and request id', () => {
  const findings = findUnstructured(lines);

  expect(describeFindings(findings, logFile!)).toBe('');
});
