import { describe, expect, test } from '@jest/globals';
import { signUpEnterpriseUsers } from '../../../functions/api/enterprise-sign-up/core';
import { signUpBodySchema } from '../../../functions/api/enterprise-sign-up/schema';
import type { EnterpriseUser, NewEnterpriseUser } from '../../../functions/domain/enterprise';
import { Forbidden } from '../../../functions/domain/errors';
import { compileValidator } from '../../../functions/domain/validation';
import { FakeClock, MemoryUserStore, sequentialIds } from '../../support/enterprise';
import { validationProblems } from '../../support/validation';

const validate = compileValidator(signUpBodySchema);
const ada = { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' };
const alan = { email: 'alan@example.com', first_name: 'Alan', last_name: 'Turing' };

function setup() {
  const users = new MemoryUserStore();
  const clock = new FakeClock(new Date('2026-11-21T10:00:00Z'));
  const signUp = signUpEnterpriseUsers({ users, newUserId: sequentialIds('usr_'), now: clock.now });
  return { users, signUp };
}

/** The messages of a rejected body, or [] when it is accepted. */
const problems = (body: unknown) => validationProblems(validate, body, 'request body is invalid');

describe('signing up enterprise users', () => {
  test('creates each user and answers them in input order with their new ids', async () => {
    const { users, signUp } = setup();

    const answer = await signUp('app_1', { app_id: 'app_1', users: [ada, alan] });

    expect(answer.users).toEqual([
      { user_id: 'usr_1', ...ada, role: 'admin', created: true },
      { user_id: 'usr_2', ...alan, role: 'viewer', created: true },
    ]);
    expect(await users.get('app_1', 'usr_1')).toEqual({
      app_id: 'app_1',
      user_id: 'usr_1',
      ...ada,
      created_at: '2026-11-21T10:00:00.000Z',
      role: 'admin',
    });
  });

  test('returns an email that is already signed up as that user, unchanged, with created false', async () => {
    const { signUp } = setup();
    await signUp('app_1', { app_id: 'app_1', users: [ada] });

    const again = await signUp('app_1', { app_id: 'app_1', users: [{ email: 'ADA@Example.com', first_name: 'Augusta', last_name: 'King' }, alan] });

    expect(again.users).toEqual([
      { user_id: 'usr_1', ...ada, role: 'admin', created: false },
      { user_id: 'usr_2', ...alan, role: 'viewer', created: true },
    ]);
  });

  test('makes one user of the same email given twice in one request', async () => {
    const { users, signUp } = setup();

    const answer = await signUp('app_1', { app_id: 'app_1', users: [ada, { ...ada, email: 'Ada@example.com' }] });

    expect(answer.users.map((u) => [u.user_id, u.created])).toEqual([
      ['usr_1', true],
      ['usr_1', false],
    ]);
    expect(users.users.size).toBe(1);
  });

  test('keeps the same email apart in two applications', async () => {
    const { signUp } = setup();

    const first = await signUp('app_1', { app_id: 'app_1', users: [ada] });
    const second = await signUp('app_2', { app_id: 'app_2', users: [ada] });

    expect(first.users[0].created).toBe(true);
    expect(second.users[0].created).toBe(true);
    expect(first.users[0].user_id).not.toBe(second.users[0].user_id);
  });

  test('answers the user of a concurrent request that claimed the email between the read and the write', async () => {
    const users = new MemoryUserStore();
    const winner: EnterpriseUser = { app_id: 'app_1', user_id: 'usr_winner', ...ada, created_at: '2026-11-21T09:59:59.000Z', role: 'marketer' };
    // The concurrent request lands right after this request's read.
    const racing = Object.assign(Object.create(users) as MemoryUserStore, {
      create: async (user: NewEnterpriseUser) => {
        await users.create(winner);
        return users.create(user);
      },
    });
    const signUp = signUpEnterpriseUsers({ users: racing, newUserId: sequentialIds('usr_'), now: () => new Date() });

    const answer = await signUp('app_1', { app_id: 'app_1', users: [ada] });

    expect(answer.users).toEqual([{ user_id: 'usr_winner', ...ada, role: 'marketer', created: false }]);
    expect(users.users.size).toBe(1);
  });

  test("gives each user the role it is signed up with, the application's first one included", async () => {
    const { signUp } = setup();

    const answer = await signUp('app_1', {
      app_id: 'app_1',
      users: [
        { ...ada, role: 'marketer' },
        { ...alan, role: 'viewer' },
      ],
    });

    expect(answer.users.map((user) => user.role)).toEqual(['marketer', 'viewer']);
  });

  test("makes the request's first user the admin of a new application even when the store answers later users first", async () => {
    const users = new MemoryUserStore();
    // The store is slow for the first write: without ordering, the second user would reach it first.
    const slowFirst = Object.assign(Object.create(users) as MemoryUserStore, {
      create: async (user: NewEnterpriseUser) => {
        if (user.email === ada.email) await new Promise((resolve) => setTimeout(resolve, 20));
        return users.create(user);
      },
    });
    const signUp = signUpEnterpriseUsers({ users: slowFirst, newUserId: sequentialIds('usr_'), now: () => new Date() });

    const answer = await signUp('app_1', { app_id: 'app_1', users: [ada, alan] });

    expect(answer.users.map((user) => [user.email, user.role])).toEqual([
      [ada.email, 'admin'],
      [alan.email, 'viewer'],
    ]);
  });

  test('makes a user without a role a viewer once the application has a user, whatever its role', async () => {
    const { signUp } = setup();
    await signUp('app_1', { app_id: 'app_1', users: [{ ...ada, role: 'viewer' }] });

    const answer = await signUp('app_1', { app_id: 'app_1', users: [alan] });

    expect(answer.users[0].role).toBe('viewer');
  });

  test('leaves the role of an email already signed up as it is', async () => {
    const { users, signUp } = setup();
    await signUp('app_1', { app_id: 'app_1', users: [ada, alan] });

    const again = await signUp('app_1', { app_id: 'app_1', users: [{ ...alan, role: 'marketer' }] });

    expect(again.users[0]).toMatchObject({ role: 'viewer', created: false });
    expect((await users.get('app_1', 'usr_2'))?.role).toBe('viewer');
  });

  test('trims the names it stores', async () => {
    const { signUp } = setup();

    const answer = await signUp('app_1', { app_id: 'app_1', users: [{ ...ada, first_name: '  Ada ', last_name: 'Lovelace\u00a0' }] });

    expect(answer.users[0].first_name).toBe('Ada');
    expect(answer.users[0].last_name).toBe('Lovelace');
  });

  test("refuses another application's app_id and writes nothing", async () => {
    const { users, signUp } = setup();

    await expect(signUp('app_1', { app_id: 'app_2', users: [ada] })).rejects.toThrow(Forbidden);
    expect(users.users.size).toBe(0);
  });
});

describe('a sign-up body', () => {
  test('is accepted with 1 and with 100 users', () => {
    expect(problems({ app_id: 'app_1', users: [ada] })).toEqual([]);
    const hundred = Array.from({ length: 100 }, (_, i) => ({ ...ada, email: `u${i}@example.com` }));
    expect(problems({ app_id: 'app_1', users: hundred })).toEqual([]);
  });

  const refused: [string, unknown, string[]][] = [
    ['without users', { app_id: 'app_1' }, ['users is required']],
    ['with no user', { app_id: 'app_1', users: [] }, ['users must hold at least 1 item']],
    ['with 101 users', { app_id: 'app_1', users: Array.from({ length: 101 }, () => ada) }, ['users must hold at most 100 items']],
    ['without app_id', { users: [ada] }, ['app_id is required']],
    ['that is not an object', [ada], ['request body must be an object']],
    [
      'with a bad email at index 1',
      { app_id: 'app_1', users: [ada, { ...alan, email: 'alan at example.com' }] },
      ['users[1].email must be a valid email address'],
    ],
    [
      'with an email over 254 characters',
      { app_id: 'app_1', users: [{ ...ada, email: `${'a'.repeat(250)}@example.com` }] },
      ['users[0].email must be at most 254 characters'],
    ],
    [
      'with an empty first name',
      { app_id: 'app_1', users: [{ ...ada, first_name: '' }] },
      ['users[0].first_name must be a non-blank name without control characters'],
    ],
    [
      'with a blank last name',
      { app_id: 'app_1', users: [{ ...ada, last_name: '   ' }] },
      ['users[0].last_name must be a non-blank name without control characters'],
    ],
    [
      'with a control character in a name',
      { app_id: 'app_1', users: [{ ...ada, last_name: 'Love\nlace' }] },
      ['users[0].last_name must be a non-blank name without control characters'],
    ],
    [
      'with a name over 100 characters',
      { app_id: 'app_1', users: [{ ...ada, first_name: 'A'.repeat(101) }] },
      ['users[0].first_name must be at most 100 characters'],
    ],
    ['with a missing last name', { app_id: 'app_1', users: [{ email: ada.email, first_name: 'Ada' }] }, ['users[0].last_name is required']],
    ['with a name that is not a string', { app_id: 'app_1', users: [{ ...ada, first_name: 7 }] }, ['users[0].first_name must be a string']],
    ['with an unknown field', { app_id: 'app_1', users: [{ ...ada, password: 'x' }] }, ['users[0].password is not allowed']],
    [
      'with a role that is not one sign_up gives',
      { app_id: 'app_1', users: [{ ...ada, role: 'owner' }] },
      ['users[0].role must be one of "marketer", "viewer"'],
    ],
    // An admin is made by an admin in the console or by the operator: a server key never names one.
    ['with the role admin', { app_id: 'app_1', users: [alan, { ...ada, role: 'admin' }] }, ['users[1].role must be one of "marketer", "viewer"']],
  ];
  for (const [name, body, expected] of refused) {
    test(`is refused ${name}, naming the user and the field`, () => {
      expect(problems(body)).toEqual(expected);
    });
  }

  test('names every problem of every user at once', () => {
    const found = problems({ app_id: 'app_1', users: [{ ...ada, email: 'x' }, ada, { ...alan, first_name: '' }] });

    expect(found).toEqual(['users[0].email must be a valid email address', 'users[2].first_name must be a non-blank name without control characters']);
  });
});
