/**
 * The log audit can fail: each kind of secret planted in a log line is
 * reported, with where it is and never its value, and the lines the handlers
 * really write pass.
 */
import { describe, expect, test } from '@jest/globals';
import { newApiKey } from '../../../functions/domain/api-keys';
import { describeFindings, findSecrets, findUnstructured, secretFieldsOf, type UsedSecret } from '../../support/log-audit';

/** A line as the Powertools logger writes it inside an invocation. */
const handlerLine = (message: string, fields: Record<string, unknown> = {}, level = 'INFO') =>
  JSON.stringify({
    level,
    message,
    timestamp: '2026-11-21T10:00:00.000Z',
    service: 'urm',
    cold_start: false,
    function_name: 'IngestProfilesFunction',
    function_request_id: '5b33cf13-9e58-4a85-8dfa-7decde480474',
    ...fields,
  });

const password = 'canary-password-7Hq2';
const vapidPrivateKey = 'mW2hO2Qe1q1y0s4b7tVqX5cLJm9kA3yDfR8uZpN6eGc';
const signInToken = 'dqEgYM5CQ3R8Ufnx49E734pWRkDCyqZQr1LDCXWCkq8';
const subscription = JSON.stringify({ endpoint: 'https://push.example.com/send/abc', keys: { p256dh: 'BPk9', auth: 'c2VjcmV0c2VjcmV0' } });
const known: UsedSecret[] = [
  { kind: 'password', value: password },
  { kind: 'secret vapid-private-key', value: vapidPrivateKey },
  { kind: 'token', value: signInToken },
  { kind: 'urm_web_push_notification_token', value: subscription },
];

describe('the log audit finds a secret', () => {
  const planted: [string, string][] = [
    ['an API key in a message', handlerLine(`refused key ${newApiKey('server')}`)],
    ['an API key in a header dump', handlerLine('Request', { headers: { 'x-api-key': newApiKey('browser') } })],
    ['a password field', handlerLine('Affiliate registered', { password: 'whatever-it-is' })],
    ['an email body, nested', handlerLine('Email sent', { request: { html_body: '<p>Your bonus</p>' } })],
    ['a text body in an array', handlerLine('Email sent', { emails: [{ text_body: 'Your bonus' }] })],
    ['a sign-in token field', handlerLine('Sign-in token issued', { token: 'abc' })],
    ['a VAPID private key field', handlerLine('Keys', { vapid_private_key: 'x' })],
    ['a push token field', handlerLine('Push failed', { urm_web_push_notification_token: ['{"endpoint":"https://p.example"}'] })],
    ['a body serialised into an error message', handlerLine('Request failed', { error: { message: `bad body {"password":"${'hunter2hunter2'}"}` } }, 'ERROR')],
    ['a PEM private key', handlerLine('Config', { pem: '-----BEGIN PRIVATE KEY-----\nMIGH' })],
    ['an email address', handlerLine('Affiliate registered', { email: 'ada.lovelace+vip@casino.example.com' })],
    ['the exact password a test used, under an innocent name', handlerLine('Affiliate registered', { note: `with ${password}` })],
    ['the exact VAPID private key, bare', handlerLine(vapidPrivateKey)],
    ['the exact sign-in token in a plain line', `[stack] handler error on GET /redirect?token=${signInToken}`],
    ['a push subscription inside a JSON string', handlerLine('Push failed', { detail: `gone: ${subscription}` })],
    ['a plain-text log line with a password', `password=${password}`],
  ];
  for (const [name, line] of planted) {
    test(name, () => {
      const findings = findSecrets(['[stack] started', line, handlerLine('Profiles ingested', { records: 1 })], known);

      expect(findings.length > 0).toBeTruthy();
      expect([...new Set(findings.map((finding) => finding.line))]).toEqual([2]);
    });
  }

  test('and its report says where and what, never the value', () => {
    const findings = findSecrets([handlerLine('x', { note: password })], known);

    const report = describeFindings(findings, 'stack.log');

    expect(report).toMatch(/stack\.log:1: the exact value of a password/);
    expect(!report.includes(password)).toBeTruthy();
  });
});

describe('the log audit passes', () => {
  test('the lines the handlers write: ids, counts and outcomes', () => {
    const lines = [
      handlerLine('Profiles ingested', { app_id: 'app_1', records: 3, failed: 0 }),
      handlerLine('Sign-in token issued', { app_id: 'app_1', user_id: 'usr_0123' }),
      handlerLine('Push sent', { notification_id: 'n-1', sent: 1, failed: 0, removed: 0, reasons: { gone: 1 }, tokens: 2 }),
      handlerLine('Sign-in link refused', { outcome: 'used' }),
      handlerLine('Records refused by the stream after retries', { failed: 1, total: 2 }, 'WARN'),
      handlerLine(
        'Request failed',
        {
          error: { name: 'Error', message: 'boom', stack: 'Error: boom\n    at x (/var/task/node_modules/@aws-sdk/client-dynamodb/dist-cjs/index.js:1:1)' },
        },
        'ERROR',
      ),
      handlerLine('Push sent', { library: 'web-push@3.6.7' }),
      handlerLine('Keys', { key_id: 'key_0123456789abcdef', token: '', password: null }),
      '[stack] consumer ApplyProfiles threw (boom); bisecting a batch of 4',
    ];

    expect(findSecrets(lines, known)).toEqual([]);
    expect(findUnstructured(lines)).toEqual([]);
  });
});

describe('the log audit finds a line without structure', () => {
  test('a handler line without its request id', () => {
    const { function_request_id: _id, ...rest } = JSON.parse(handlerLine('Profiles ingested'));

    expect(findUnstructured([JSON.stringify(rest)])).toEqual([{ line: 1, problem: 'IngestProfilesFunction: no function_request_id' }]);
  });

  test('a line that is not JSON and not the stack’s own', () => {
    expect(findUnstructured(['[stack] ok', 'console.log from a handler'])).toEqual([{ line: 2, problem: 'not a structured JSON line' }]);
  });

  test('a line whose timestamp is not a date', () => {
    expect(findUnstructured([handlerLine('x', { timestamp: 'yesterday' })]).length).toBe(1);
  });
});

describe('the recorder notes the secrets a test sends and receives', () => {
  test('passwords, email bodies, tokens and a push subscription with its auth secret, however deep', () => {
    const noted = secretFieldsOf({
      app_id: 'app_1',
      password,
      message: { html_body: '<p>Your bonus is ready</p>', text_body: 'Your bonus is ready' },
      records: [{ urm_unique_append: { urm_web_push_notification_token: [subscription] } }],
      token: signInToken,
    });

    expect(noted).toEqual([
      { kind: 'password', value: password },
      { kind: 'html_body', value: '<p>Your bonus is ready</p>' },
      { kind: 'text_body', value: 'Your bonus is ready' },
      { kind: 'urm_web_push_notification_token', value: subscription },
      { kind: 'auth', value: 'c2VjcmV0c2VjcmV0' },
      { kind: 'token', value: signInToken },
    ]);
  });

  test('but not values too short to look for', () => {
    expect(secretFieldsOf({ password: 'short' })).toEqual([]);
  });

  test('but not blank values, which pad every aligned line of output', () => {
    const blank = ' '.repeat(12);

    expect(secretFieldsOf({ password: blank })).toEqual([]);
    expect(findSecrets([`[stack] web-sdk: worker.js${blank}4.4 KB`], [{ kind: 'password', value: blank }])).toEqual([]);
  });

  test('in a body nested far deeper than any call stack (the fuzz test sends such bodies)', () => {
    let body: unknown = { password };
    for (let i = 0; i < 100_000; i++) body = [body];

    expect(secretFieldsOf(body)).toEqual([{ kind: 'password', value: password }]);
  });
});
