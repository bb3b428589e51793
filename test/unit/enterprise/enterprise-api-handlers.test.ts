import { beforeEach, describe, expect, test } from '@jest/globals';
import { makeEnterpriseSignInHandler } from '../../../functions/api/enterprise-sign-in/make-handler';
import { makeEnterpriseSignUpHandler } from '../../../functions/api/enterprise-sign-up/make-handler';
import type { App } from '../../../functions/domain/apps';
import { newUserId, type EnterpriseUser, type StoredSignInToken } from '../../../functions/domain/enterprise';
import { hashSecret, newSecret } from '../../../functions/domain/secrets-random';
import { MemoryAppStore } from '../../support/affiliates';
import { MemoryUserStore } from '../../support/enterprise';
import { MemoryOneTimeTokenStore } from '../../support/sessions';
import { keyResolverOf } from '../../support/settings';
import { apiEvent, asProxyHandler, context, type ProxyHandler } from '../../support/lambda';

const app: App = { app_id: 'app_1', name: 'Casino <Royale>', created_at: '2026-01-01T00:00:00Z', portal_origin: 'https://portal.example.com' };
const ada: EnterpriseUser = {
  app_id: 'app_1',
  user_id: 'usr_1',
  email: 'ada@example.com',
  first_name: '<script>alert("Ada")</script>',
  last_name: "O'Brien & Sons",
  created_at: '2026-11-21T09:00:00.000Z',
  role: 'marketer',
};

let users: MemoryUserStore;
let tokens: MemoryOneTimeTokenStore<StoredSignInToken>;
let signUp: ProxyHandler;
function signInWith(application: App): ProxyHandler {
  const keys = keyResolverOf({ 'server-key': { app_id: 'app_1', scope: 'server', key_id: 'k1' } });
  return asProxyHandler(
    makeEnterpriseSignInHandler({ keys, users, apps: new MemoryAppStore([application]), tokens, newToken: newSecret, now: () => new Date() }),
  );
}
beforeEach(() => {
  users = new MemoryUserStore();
  tokens = new MemoryOneTimeTokenStore<StoredSignInToken>();
  const keys = keyResolverOf({ 'server-key': { app_id: 'app_1', scope: 'server', key_id: 'k1' } });
  signUp = asProxyHandler(makeEnterpriseSignUpHandler({ keys, users, newUserId, now: () => new Date() }));
});

const post = (handler: ProxyHandler, body: unknown) =>
  handler(apiEvent({ path: '/', headers: { 'Content-Type': 'application/json', 'X-Api-Key': 'server-key' }, body: JSON.stringify(body) }), context());
const alan = { email: 'alan@example.com', first_name: 'Alan', last_name: 'Turing' };

describe('POST /enterprises/sign_up handler', () => {
  test("creates the application's first user as admin and answers it", async () => {
    const response = await post(signUp, { app_id: 'app_1', users: [alan] });

    expect(response.statusCode).toBe(200);
    const [answered] = JSON.parse(response.body).users;
    expect(answered.user_id).toMatch(/^usr_[0-9a-f]{24}$/);
    expect(answered).toEqual({ ...alan, user_id: answered.user_id, role: 'admin', created: true });
    expect(await users.findByEmail('app_1', 'alan@example.com')).toEqual(expect.objectContaining({ user_id: answered.user_id, role: 'admin' }));
  });

  test('creates a later user without a role as viewer', async () => {
    await users.create(ada);

    const response = await post(signUp, { app_id: 'app_1', users: [alan] });

    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body).users[0].role).toBe('viewer');
    expect((await users.findByEmail('app_1', 'alan@example.com'))?.role).toBe('viewer');
  });

  test('answers the existing user, unchanged, for an email already signed up', async () => {
    await users.create(ada);

    const response = await post(signUp, { app_id: 'app_1', users: [{ email: 'ada@example.com', first_name: 'A', last_name: 'B' }] });

    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body).users).toEqual([
      { user_id: 'usr_1', email: 'ada@example.com', first_name: ada.first_name, last_name: ada.last_name, role: 'marketer', created: false },
    ]);
    expect(users.users.size).toBe(1);
  });

  test('answers 400 naming role to a user signed up as admin, on an application with an admin or without, and creates nobody', async () => {
    const first = await post(signUp, { app_id: 'app_1', users: [{ ...alan, role: 'admin' }] });
    await users.create({ ...ada, role: 'admin' });
    const later = await post(signUp, { app_id: 'app_1', users: [{ ...alan, role: 'admin' }] });

    for (const response of [first, later]) {
      expect(response.statusCode).toBe(400);
      expect(JSON.parse(response.body).errors).toEqual([expect.stringMatching(/^users\[0\]\.role must be one of "marketer", "viewer"/)]);
    }
    expect(await users.findByEmail('app_1', alan.email)).toBeUndefined();
  });

  test('answers 400 naming each bad user and field, and creates nobody', async () => {
    const response = await post(signUp, {
      app_id: 'app_1',
      users: [
        { email: 'ok@example.com', first_name: 'A', last_name: 'B' },
        { email: 'nope', first_name: '', last_name: 'B' },
      ],
    });

    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      message: 'request body is invalid',
      errors: ['users[1].email must be a valid email address', 'users[1].first_name must be a non-blank name without control characters'],
    });
    expect(users.users.size).toBe(0);
  });
});

describe('POST /enterprises/sign_in handler', () => {
  beforeEach(async () => {
    await users.create(ada);
  });

  test('stores the hash of a fresh token and answers the token, the redirect address and the expiry, uncached', async () => {
    const response = await post(signInWith(app), { app_id: 'app_1', user_id: 'usr_1' });

    expect(response.statusCode).toBe(200);
    expect(response.headers?.['Cache-Control']).toBe('no-store');
    const answer = JSON.parse(response.body);
    expect(answer.redirect_url).toBe(`https://portal.example.com/redirect?token=${answer.token}`);
    const stored = [...tokens.tokens.values()];
    expect(stored).toEqual([
      expect.objectContaining({ token_hash: hashSecret(answer.token), app_id: 'app_1', user_id: 'usr_1', expires_at: answer.expires_at }),
    ]);
    expect(!JSON.stringify(stored).includes(answer.token)).toBeTruthy();
  });

  test('answers 404 with a message for an unknown user, and stores no token', async () => {
    const response = await post(signInWith(app), { app_id: 'app_1', user_id: 'usr_nobody' });

    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body)).toEqual({ message: 'user not found' });
    expect(tokens.tokens.size).toBe(0);
  });

  test('answers 409 when the application has no portal origin', async () => {
    const response = await post(signInWith({ ...app, portal_origin: undefined }), { app_id: 'app_1', user_id: 'usr_1' });

    expect(response.statusCode).toBe(409);
    expect(JSON.parse(response.body).message).toMatch(/no portal origin/);
  });
});
