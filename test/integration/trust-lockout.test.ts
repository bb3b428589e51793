/**
 * The affiliate portal's sign-in lockout against attempts sent at once, over
 * HTTP on the local stack (issue 25, item 2). Each attacker has a loopback
 * address of its own (Linux routes all of 127.0.0.0/8 to this machine), so
 * the per-address windows it fills are its own, not the other tests'.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { DynamoSignInAttempts } from '../../functions/adapters/dynamo-sign-in-attempts';
import { portalLimits } from '../../functions/domain/affiliate-portal';
import { tables } from '../../functions/manifest/resources';
import { localClients } from '../../lib/local/stack';
import { testStack, type TestStack } from '../support/local-stack';
import { PortalVisitor, registeredAffiliate } from '../support/portal';

let stack: TestStack;
beforeAll(async () => {
  stack = await testStack();
});

interface Answer {
  status: number;
  cookies: string[];
  text: string;
}

/** A browser at one loopback address, holding the pre-session cookie the sign-in form is bound to. */
class Attacker {
  readonly address = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
  private readonly agent = new Agent({ keepAlive: false });
  private cookie = '';
  private csrf = '';

  constructor(private readonly appId: string) {}

  private send(method: 'GET' | 'POST', fields?: Record<string, string>): Promise<Answer> {
    const url = new URL(`/affiliates/${this.appId}/login`, stack.baseUrl);
    const body = fields ? new URLSearchParams(fields).toString() : undefined;
    return new Promise((resolve, reject) => {
      const sent = request(
        url,
        {
          method,
          agent: this.agent,
          localAddress: this.address,
          headers: { cookie: this.cookie, ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, cookies: response.headers['set-cookie'] ?? [], text: Buffer.concat(chunks).toString('utf8') }),
          );
          response.on('error', reject);
        },
      );
      sent.on('error', reject);
      sent.end(body);
    });
  }

  /** Opens the sign-in page once: every later attempt posts its form with that page's token and cookie. */
  async openForm(): Promise<void> {
    const page = await this.send('GET');
    expect(page.status).toBe(200);
    this.cookie = page.cookies.map((line) => line.split(';')[0]).join('; ');
    this.csrf = PortalVisitor.csrfOf(page.text);
  }

  signIn(login: string, password: string): Promise<Answer> {
    return this.send('POST', { csrf: this.csrf, login, password });
  }

  /**
   * How many attempts this address has used in its window, found as any client finds it: wrong passwords for
   * logins no one has, one after another, until the address is locked. The attempt that fills the window is
   * answered 429, so the window held `failuresPerClient − 1 − the 401s` before.
   */
  async attemptsUsed(): Promise<number> {
    let refused = 0;
    for (let i = 0; i < portalLimits.failuresPerClient; i++) {
      const answer = await this.signIn(`nobody-${randomUUID()}`, 'a wrong password');
      if (answer.status === 429) return portalLimits.failuresPerClient - 1 - refused;
      expect(answer.status).toBe(401);
      refused++;
    }
    throw new Error(`the address was not locked after ${portalLimits.failuresPerClient} more failures`);
  }

  close(): void {
    this.agent.destroy();
  }
}

const attackers: Attacker[] = [];
const attacker = async (appId = stack.dev.app_id) => {
  const made = new Attacker(appId);
  attackers.push(made);
  await made.openForm();
  return made;
};
afterAll(() => {
  for (const made of attackers) made.close();
});

const signedIn = (answers: Answer[]) => answers.filter((answer) => answer.status === 303 || answer.cookies.some((line) => line.startsWith('urm_aff_session=')));

describe('sixteen sign-ins sent at once', () => {
  test(`to one account, the right password last: at most ${portalLimits.failuresPerAccount} passwords are checked, no session starts, and the account stays locked`, async () => {
    const affiliate = await registeredAffiliate(stack, stack.dev.app_id, stack.dev.server_key);
    const from = await attacker();
    const passwords = Array.from({ length: 16 }, (_, i) => (i === 15 ? affiliate.password : `wrong guess ${i}`));

    const answers = await Promise.all(passwords.map((password) => from.signIn(affiliate.username, password)));
    const checked = await from.attemptsUsed();
    const afterwards = await (await attacker()).signIn(affiliate.username, affiliate.password);

    expect(signedIn(answers)).toEqual([]);
    expect(answers.every((answer) => answer.status === 401 || answer.status === 429)).toBe(true);
    expect(checked).toBeLessThanOrEqual(portalLimits.failuresPerAccount);
    expect(afterwards.status).toBe(429);
  });

  test('from one address with four attempts left, to sixteen accounts: no session starts, and the address stays locked', async () => {
    const left = 4;
    const affiliate = await registeredAffiliate(stack, stack.dev.app_id, stack.dev.server_key);
    const from = await attacker();
    for (let i = 0; i < portalLimits.failuresPerClient - left; i++) expect((await from.signIn(`nobody-${randomUUID()}`, 'a wrong password')).status).toBe(401);
    const logins = Array.from({ length: 16 }, (_, i) => (i === 15 ? affiliate.username : `nobody-${randomUUID()}`));

    const answers = await Promise.all(logins.map((login, i) => from.signIn(login, i === 15 ? affiliate.password : 'a wrong password')));
    const afterwards = await from.signIn(affiliate.username, affiliate.password);

    expect(signedIn(answers)).toEqual([]);
    expect(answers.filter((answer) => answer.status === 401).length).toBeLessThanOrEqual(left);
    expect(answers.every((answer) => answer.status === 401 || answer.status === 429)).toBe(true);
    expect(afterwards.status).toBe(429);
  });
});

describe('the attempts table on DynamoDB Local', () => {
  const limit = portalLimits.failuresPerAccount;
  const table = () => new DynamoSignInAttempts(localClients(stack.endpoints).document, tables.signInAttempts.localName);

  test(`of sixteen attempts counted at once, with no window yet, exactly ${limit} are admitted into one new window`, async () => {
    const attempts = table();
    const key = `account#test#${randomUUID()}`;
    const now = new Date();

    const admissions = await Promise.all(Array.from({ length: 16 }, () => attempts.admit(key, limit, now, portalLimits.attemptWindowMs)));

    expect(admissions.filter((admission) => admission.admitted).length).toBe(limit);
    expect(new Set(admissions.map((admission) => admission.window.ends_at)).size).toBe(1);
    expect(await attempts.current([key], now)).toEqual([{ attempts: limit, failures: 0, ends_at: admissions[0].window.ends_at }]);
  });

  test('an attempt given back frees its place in its own window, and nothing in a later one', async () => {
    const attempts = table();
    const key = `client#test#${randomUUID()}`;
    const now = new Date();
    const first = await attempts.admit(key, 1, now, portalLimits.attemptWindowMs);
    const refused = await attempts.admit(key, 1, now, portalLimits.attemptWindowMs);

    await attempts.release(key, first.window.ends_at);
    const again = await attempts.admit(key, 1, now, portalLimits.attemptWindowMs);
    await attempts.release(key, '2000-01-01T00:00:00.000Z');

    expect([first.admitted, refused.admitted, again.admitted]).toEqual([true, false, true]);
    expect((await attempts.current([key], now))[0]?.attempts).toBe(1);
  });

  test('a failure counts in the live window; after the window has ended a new one opens', async () => {
    const attempts = table();
    const key = `account#test#${randomUUID()}`;
    const now = new Date();
    await attempts.admit(key, limit, now, 60_000);

    const counted = await attempts.recordFailure(key, now, 60_000);
    const later = new Date(now.getTime() + 60_000);
    const reopened = await attempts.admit(key, limit, later, 60_000);

    expect(counted).toMatchObject({ attempts: 1, failures: 1 });
    expect(reopened).toEqual({ admitted: true, window: { attempts: 1, failures: 0, ends_at: new Date(later.getTime() + 60_000).toISOString() } });
  });
});
