/**
 * Loaded into every test file that uses the shared stack (a jest setupFile
 * of those projects, jest.config.js): notes each secret a test sends to or receives from any HTTP
 * service (API keys, passwords, email bodies, sign-in tokens, session ids,
 * push subscriptions) in the file URM_TEST_SECRETS names, so the log audit
 * (test/audit/) can look for those exact values, whatever their shape.
 */
import { appendFileSync } from 'node:fs';
import { secretFieldsOf, type UsedSecret } from './log-audit';

const file = process.env.URM_TEST_SECRETS;
const seen = new Set<string>();

function note(secrets: () => UsedSecret[]): void {
  let fresh: UsedSecret[];
  try {
    fresh = secrets().filter((secret) => !seen.has(secret.value));
  } catch (error) {
    // Noting must never change what a test sees; a body it cannot read is the audit's loss, said once here.
    console.error(`secret recorder: ${(error as Error).message}`);
    return;
  }
  if (!file || fresh.length === 0) return;
  for (const secret of fresh) seen.add(secret.value);
  // One write per call: lines of concurrent test processes never interleave.
  appendFileSync(file, fresh.map((secret) => `${JSON.stringify(secret)}\n`).join(''), { mode: 0o600 });
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The values of `name=value` cookies (a Cookie header, or each Set-Cookie without its attributes). */
function cookieValues(cookies: string[]): UsedSecret[] {
  return cookies
    .flatMap((cookie) => cookie.split(';'))
    .map((pair) => /^\s*[^=\s]+=(.+)$/.exec(pair)?.[1]?.trim())
    .filter((value): value is string => value !== undefined)
    .map((value) => ({ kind: 'session id', value }));
}

function sentSecrets(input: string | URL | Request, init: RequestInit | undefined): UsedSecret[] {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const headers = new Headers(input instanceof Request ? input.headers : init?.headers);
  const sent: UsedSecret[] = [];
  const apiKey = headers.get('x-api-key');
  if (apiKey) sent.push({ kind: 'API key', value: apiKey });
  const cookie = headers.get('cookie');
  if (cookie) sent.push(...cookieValues([cookie]));
  const linkToken = url.searchParams.get('token');
  if (linkToken) sent.push({ kind: 'sign-in token', value: linkToken });
  if (typeof init?.body === 'string') sent.push(...secretFieldsOf(jsonOf(init.body)));
  return sent;
}

if (file) {
  const original = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    note(() => sentSecrets(input, init));
    const response = await original(input, init);
    const json = response.headers.get('content-type')?.includes('json') ? await response.clone().text() : '';
    note(() => [...cookieValues(response.headers.getSetCookie().map((cookie) => cookie.split(';')[0])), ...secretFieldsOf(jsonOf(json))]);
    return response;
  };
}
