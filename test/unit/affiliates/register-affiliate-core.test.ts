import { describe, expect, test } from '@jest/globals';
import { loginUrl, registerAffiliate } from '../../../functions/back-office/affiliate-registration';
import { validRegistration } from '../../../functions/back-office/affiliate-registration-schema';
import { uniquenessKey } from '../../../functions/domain/affiliates';
import { Forbidden, ValidationError } from '../../../functions/domain/errors';
import { hashPassword, verifyPassword } from '../../../functions/domain/passwords';
import { MemoryAffiliateStore, MemoryAppStore, MemoryPlanStore, registration } from '../../support/affiliates';

const apps = new MemoryAppStore([
  { app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z', portal_origin: 'https://portal.example.com' },
  { app_id: 'app_2', name: 'No portal', created_at: '2026-01-01T00:00:00Z' },
  { app_id: 'app_3', name: 'Open programme', created_at: '2026-01-01T00:00:00Z', affiliate_approval: 'approve', default_plan_id: 'plan_demo' },
  { app_id: 'app_4', name: 'Reviewed programme', created_at: '2026-01-01T00:00:00Z', affiliate_approval: 'pending' },
]);
const plans = new MemoryPlanStore();
// The demo plan, edited once: a new affiliate gets its current version.
plans.plans.push({
  app_id: 'app_3',
  plan_id: 'plan_demo',
  name: 'Demo',
  cpa: { amount: '50.00', min_deposit: '0.00' },
  created_at: '2026-01-01T00:00:00Z',
  version: 2,
});

function setUp() {
  const affiliates = new MemoryAffiliateStore();
  const warnings: string[] = [];
  let n = 0;
  const register = registerAffiliate({
    affiliates,
    apps,
    plans,
    // Cheap parameters: the tests check the format, not the cost.
    hashPassword: (password) => hashPassword(password, { N: 2 ** 10, r: 8, p: 1 }),
    newId: () => `aff_${++n}`,
    now: () => new Date('2026-11-21T10:00:00.000Z'),
    log: { warn: (message: string) => void warnings.push(message) },
  });
  const submit = (body: Record<string, unknown>, callerAppId = String(body.app_id)) => register(validRegistration(body), callerAppId);
  return { affiliates, submit, warnings };
}

async function rejectsWith(promise: Promise<unknown>, errors: string[]): Promise<void> {
  await expect(promise).rejects.toThrow(ValidationError);
  await expect(promise).rejects.toMatchObject({ errors });
}

describe('register_affiliate', () => {
  test("answers the affiliate id and the application's portal login address", async () => {
    const { submit } = setUp();

    const answer = await submit(registration('app_1'));

    expect(answer).toEqual({ login_url: 'https://portal.example.com/affiliates/app_1/login', affiliate_id: 'aff_1' });
  });

  test('a new affiliate is approved and on the default plan when the application approves at once', async () => {
    const { affiliates, submit } = setUp();

    await submit(registration('app_3'));

    const [stored] = affiliates.affiliates.values();
    expect([stored.status, stored.plan_id]).toEqual(['approved', 'plan_demo']);
    expect(stored.deals).toEqual([{ plan_id: 'plan_demo', plan_version: 2, from: '2026-11-21', assigned_at: '2026-11-21T10:00:00.000Z' }]);
  });

  test('a new affiliate is pending, without a plan, when the application reviews affiliates or says nothing', async () => {
    const { affiliates, submit } = setUp();

    await submit(registration('app_4'));
    await submit({ ...registration('app_1'), email: 'other@example.com', username: 'other' });

    expect([...affiliates.affiliates.values()].map((a) => [a.app_id, a.status, a.plan_id])).toEqual([
      ['app_4', 'pending', undefined],
      ['app_1', 'pending', undefined],
    ]);
  });

  test('without a portal origin, the affiliate is registered and the login address is null, with a warning for the operator', async () => {
    const { affiliates, submit, warnings } = setUp();

    const answer = await submit(registration('app_2'), 'app_2');

    expect(answer).toEqual({ login_url: null, affiliate_id: 'aff_1' });
    expect(affiliates.affiliates.size).toBe(1);
    expect(warnings.length).toBe(1);
  });

  test('stores the trimmed fields and given optional fields, and only a salted hash of the password', async () => {
    const { affiliates, submit } = setUp();
    const body = { ...registration('app_1'), email: ' Ada@Example.com ', telegram: 'ada_tg', skype: ' ada.lovelace ', facebook: '', youtube: null };

    await submit(body);

    const [stored] = affiliates.affiliates.values();
    const { password_hash: hash, ...rest } = stored;
    expect(rest).toEqual({
      app_id: 'app_1',
      affiliate_id: 'aff_1',
      email: 'Ada@Example.com',
      username: body.username,
      first_name: 'Ada',
      last_name: 'Lovelace',
      telegram: 'ada_tg',
      skype: 'ada.lovelace',
      created_at: '2026-11-21T10:00:00.000Z',
      status: 'pending',
    });
    expect(hash).toMatch(/^scrypt\$1024\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(!hash.includes(String(body.password))).toBeTruthy();
    expect(await verifyPassword(String(body.password), hash)).toBe(true);
  });

  test('a used email, in another case and with spaces, is "email is invalid"', async () => {
    const { submit } = setUp();
    await submit({ ...registration('app_1'), email: 'ada@example.com' });

    await rejectsWith(submit({ ...registration('app_1'), email: '  ADA@example.COM ' }), ['email is invalid']);
  });

  test('a used username in another case is "username is invalid"', async () => {
    const { submit } = setUp();
    await submit({ ...registration('app_1'), username: 'Alice' });

    await rejectsWith(submit({ ...registration('app_1'), username: 'alice' }), ['username is invalid']);
  });

  test('a used email and username give both messages', async () => {
    const { submit } = setUp();
    const first = registration('app_1');
    await submit(first);

    await rejectsWith(submit({ ...registration('app_1'), email: first.email, username: first.username }), ['email is invalid', 'username is invalid']);
  });

  test('the same email and username are free in another application', async () => {
    const { submit } = setUp();
    const body = registration('app_1');
    await submit(body);

    const answer = await submit({ ...body, app_id: 'app_2' });

    expect(answer.affiliate_id).toBe('aff_2');
  });

  test("refuses another application's app_id and stores nothing", async () => {
    const { affiliates, submit } = setUp();

    await expect(submit(registration('app_2'), 'app_1')).rejects.toThrow(Forbidden);
    expect(affiliates.affiliates.size).toBe(0);
  });

  test('uniqueness keys are trimmed, NFC and lower-case', () => {
    expect(uniquenessKey('  Zoe\u0308@Example.COM ')).toBe('zo\u00eb@example.com');
  });

  test("the login address is the application's portal sign-in page on the origin", () => {
    expect(loginUrl('https://portal.example.com', 'app_1')).toBe('https://portal.example.com/affiliates/app_1/login');
    expect(loginUrl('http://localhost:8080', 'app_2')).toBe('http://localhost:8080/affiliates/app_2/login');
  });
});
