import { describe, expect, test } from '@jest/globals';
import { signInEnterpriseUser } from '../../../functions/api/enterprise-sign-in/core';
import { signInBodySchema } from '../../../functions/api/enterprise-sign-in/schema';
import type { App } from '../../../functions/domain/apps';
import type { StoredSignInToken } from '../../../functions/domain/enterprise';
import { Conflict, Forbidden, NotFound } from '../../../functions/domain/errors';
import { hashSecret, newSecret } from '../../../functions/domain/secrets-random';
import { compileValidator } from '../../../functions/domain/validation';
import { MemoryAppStore } from '../../support/affiliates';
import { FakeClock, MemoryUserStore } from '../../support/enterprise';
import { MemoryOneTimeTokenStore } from '../../support/sessions';
import { validationProblems } from '../../support/validation';

const apps: App[] = [
  { app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z', portal_origin: 'https://portal.example.com' },
  { app_id: 'app_2', name: 'Other', created_at: '2026-01-01T00:00:00Z', portal_origin: 'https://other.example.com' },
  { app_id: 'app_3', name: 'No portal', created_at: '2026-01-01T00:00:00Z' },
];

async function setup() {
  const users = new MemoryUserStore();
  const tokens = new MemoryOneTimeTokenStore<StoredSignInToken>();
  const clock = new FakeClock(new Date('2026-11-21T10:00:00.250Z'));
  for (const appId of ['app_1', 'app_2', 'app_3']) {
    await users.create({
      app_id: appId,
      user_id: `usr_${appId}`,
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      created_at: '',
      role: 'admin',
    });
  }
  const signIn = signInEnterpriseUser({ users, apps: new MemoryAppStore(apps), tokens, newToken: newSecret, now: clock.now });
  return { tokens, signIn };
}

describe('signing in an enterprise user', () => {
  test('answers a 256-bit token, the portal redirect address that carries it, and an expiry 5 minutes on', async () => {
    const { signIn } = await setup();

    const answer = await signIn('app_1', { app_id: 'app_1', user_id: 'usr_app_1' });

    expect(answer.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(answer.redirect_url).toBe(`https://portal.example.com/redirect?token=${answer.token}`);
    expect(answer.expires_at).toBe('2026-11-21T10:05:00.250Z');
  });

  test('stores only the hash of the token, with the user and the expiry', async () => {
    const { tokens, signIn } = await setup();

    const answer = await signIn('app_1', { app_id: 'app_1', user_id: 'usr_app_1' });

    expect([...tokens.tokens.values()]).toEqual([
      {
        token_hash: hashSecret(answer.token),
        app_id: 'app_1',
        user_id: 'usr_app_1',
        created_at: '2026-11-21T10:00:00.250Z',
        expires_at: '2026-11-21T10:05:00.250Z',
      },
    ]);
    expect(!JSON.stringify([...tokens.tokens.values()]).includes(answer.token)).toBeTruthy();
  });

  test('issues a different token on every sign-in', async () => {
    const { signIn } = await setup();

    const first = await signIn('app_1', { app_id: 'app_1', user_id: 'usr_app_1' });
    const second = await signIn('app_1', { app_id: 'app_1', user_id: 'usr_app_1' });

    expect(first.token).not.toBe(second.token);
  });

  test('answers 404 for a user the application does not have, and stores no token', async () => {
    const { tokens, signIn } = await setup();

    const signingIn = signIn('app_1', { app_id: 'app_1', user_id: 'usr_nobody' });

    await expect(signingIn).rejects.toThrow(NotFound);
    await expect(signingIn).rejects.toThrow(/^user not found$/);
    expect(tokens.tokens.size).toBe(0);
  });

  test("answers 404 for another application's user", async () => {
    const { signIn } = await setup();

    await expect(signIn('app_1', { app_id: 'app_1', user_id: 'usr_app_2' })).rejects.toThrow(NotFound);
  });

  test("refuses a body naming another application than the key's", async () => {
    const { signIn } = await setup();

    await expect(signIn('app_1', { app_id: 'app_2', user_id: 'usr_app_2' })).rejects.toThrow(Forbidden);
  });

  test('refuses, with a conflict and no token, an application without a portal origin', async () => {
    const { tokens, signIn } = await setup();

    const signingIn = signIn('app_3', { app_id: 'app_3', user_id: 'usr_app_3' });

    await expect(signingIn).rejects.toThrow(Conflict);
    await expect(signingIn).rejects.toThrow(/no portal origin/);
    expect(tokens.tokens.size).toBe(0);
  });
});

describe('a sign-in body', () => {
  const validate = compileValidator(signInBodySchema);
  const problems = (body: unknown) => validationProblems(validate, body);

  test('needs app_id and user_id, and nothing else', () => {
    expect(problems({ app_id: 'app_1', user_id: 'usr_1' })).toEqual([]);
    expect(problems({ app_id: 'app_1' })).toEqual(['user_id is required']);
    expect(problems({ app_id: 'app_1', user_id: '' })).toEqual(['user_id must not be empty']);
    expect(problems({ app_id: 'app_1', user_id: 'u'.repeat(65) })).toEqual(['user_id must be at most 64 characters']);
    expect(problems({ app_id: 'app_1', user_id: 'usr_1', email: 'x' })).toEqual(['email is not allowed']);
  });
});
