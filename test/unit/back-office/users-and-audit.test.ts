import { describe, expect, test } from '@jest/globals';
import { audit, readAudit } from '../../../functions/back-office/audit';
import { portalSignInLink } from '../../../functions/back-office/portal-link';
import { changeUserRole, listUsers } from '../../../functions/back-office/users';
import type { App } from '../../../functions/domain/apps';
import type { Role, StoredSignInToken } from '../../../functions/domain/enterprise';
import { Conflict, NotFound } from '../../../functions/domain/errors';
import { hashSecret } from '../../../functions/domain/secrets-random';
import { FakeClock, MemoryAuditLog, MemoryUserStore } from '../../support/enterprise';
import { MemoryOneTimeTokenStore } from '../../support/sessions';

const admin = { user_id: 'usr_1', email: 'ada@example.com' };

async function setup() {
  const clock = new FakeClock(new Date('2026-11-21T10:00:00.000Z'));
  const users = new MemoryUserStore();
  const log = new MemoryAuditLog();
  const tokens = new MemoryOneTimeTokenStore<StoredSignInToken>();
  const apps: App[] = [{ app_id: 'app_1', name: 'Casino', created_at: '', portal_origin: 'http://127.0.0.1:3000' } as App];
  const office = {
    users,
    audit: log,
    signInTokens: tokens,
    apps: { get: async (appId: string) => apps.find((app) => app.app_id === appId) } as never,
    now: clock.now,
  };
  const add = (appId: string, userId: string, role: Role, created = '2026-11-21T09:00:00.000Z') =>
    users.create({ app_id: appId, user_id: userId, email: `${userId}@example.com`, first_name: 'F', last_name: 'L', created_at: created, role });
  return { clock, users, log, tokens, office, add };
}

describe('changing a role', () => {
  test("sets the user's role and writes who did it, to whom, from what to what, and when", async () => {
    const { office, add, log, users } = await setup();
    await add('app_1', 'usr_1', 'admin');
    await add('app_1', 'usr_2', 'viewer');

    const changed = await changeUserRole(office)('app_1', admin, 'usr_2', 'marketer');

    expect(changed.role).toBe('marketer');
    expect((await users.get('app_1', 'usr_2'))?.role).toBe('marketer');
    expect(log.entries).toEqual([
      {
        app_id: 'app_1',
        entry_id: expect.stringMatching(/^2026-11-21T10:00:00\.000Z#[0-9a-f]{16}$/),
        at: '2026-11-21T10:00:00.000Z',
        actor: admin,
        action: 'user.role_changed',
        target: 'user:usr_2',
        details: { from: 'viewer', to: 'marketer' },
      },
    ]);
  });

  test("refuses to demote the application's last admin, and writes nothing", async () => {
    const { office, add, log, users } = await setup();
    await add('app_1', 'usr_1', 'admin');

    await expect(changeUserRole(office)('app_1', admin, 'usr_1', 'viewer')).rejects.toThrow(new Conflict('the application must keep at least one admin'));

    expect((await users.get('app_1', 'usr_1'))?.role).toBe('admin');
    expect(log.entries).toEqual([]);
  });

  test('lets an admin be demoted while another admin remains', async () => {
    const { office, add } = await setup();
    await add('app_1', 'usr_1', 'admin');
    await add('app_1', 'usr_2', 'admin');

    expect((await changeUserRole(office)('app_1', admin, 'usr_1', 'viewer')).role).toBe('viewer');
  });

  test("answers 404 for another application's user, found by its id, and changes nothing", async () => {
    const { office, add, users } = await setup();
    await add('app_1', 'usr_1', 'admin');
    await add('app_2', 'usr_9', 'viewer');

    await expect(changeUserRole(office)('app_1', admin, 'usr_9', 'admin')).rejects.toThrow(NotFound);

    expect((await users.get('app_2', 'usr_9'))?.role).toBe('viewer');
  });

  test('writes no entry when the user already has the role', async () => {
    const { office, add, log } = await setup();
    await add('app_1', 'usr_1', 'admin');
    await add('app_1', 'usr_2', 'viewer');

    await changeUserRole(office)('app_1', admin, 'usr_2', 'viewer');

    expect(log.entries).toEqual([]);
  });
});

describe('listing users', () => {
  test("pages through the application's users oldest first, and only them", async () => {
    const { office, add } = await setup();
    await add('app_1', 'usr_1', 'admin', '2026-11-21T09:00:00.000Z');
    await add('app_2', 'usr_x', 'admin', '2026-11-21T09:00:30.000Z');
    await add('app_1', 'usr_2', 'viewer', '2026-11-21T09:01:00.000Z');
    await add('app_1', 'usr_3', 'marketer', '2026-11-21T09:02:00.000Z');

    const first = await listUsers(office)('app_1', { limit: 2 });
    const second = await listUsers(office)('app_1', { limit: 2, cursor: first.cursor });

    expect(first.users.map((user) => [user.user_id, user.role])).toEqual([
      ['usr_1', 'admin'],
      ['usr_2', 'viewer'],
    ]);
    expect(second).toEqual({ users: [expect.objectContaining({ user_id: 'usr_3', role: 'marketer' })] });
  });
});

describe('the audit log', () => {
  test('reads newest first, a page at a time, per application', async () => {
    const { office, clock } = await setup();
    for (const target of ['a', 'b', 'c']) {
      await audit(office)({ appId: 'app_1', actor: admin, action: 'thing.done', target });
      clock.advance(1000);
    }
    await audit(office)({ appId: 'app_2', actor: admin, action: 'thing.done', target: 'other' });

    const first = await readAudit(office)('app_1', { limit: 2 });
    const second = await readAudit(office)('app_1', { limit: 2, cursor: first.cursor });

    expect(first.entries.map((entry) => entry.target)).toEqual(['c', 'b']);
    expect(second.entries.map((entry) => entry.target)).toEqual(['a']);
    expect(second.cursor).toBeUndefined();
  });
});

describe('a sign-in link from the command line', () => {
  test("issues a one-time token for the user with this email, stored by hash, on the application's portal, audited", async () => {
    const { office, add, tokens, log } = await setup();
    await add('app_1', 'usr_1', 'admin');

    const link = await portalSignInLink(office)('app_1', 'USR_1@example.com');

    const url = new URL(link.redirect_url);
    expect(`${url.origin}${url.pathname}`).toBe('http://127.0.0.1:3000/redirect');
    expect(url.searchParams.get('token')).toBe(link.token);
    expect(tokens.tokens.get(hashSecret(link.token))).toMatchObject({ app_id: 'app_1', user_id: 'usr_1', expires_at: '2026-11-21T10:05:00.000Z' });
    expect(log.entries.map((entry) => [entry.action, entry.target, entry.actor.user_id])).toEqual([['user.sign_in_link_issued', 'user:usr_1', 'cli']]);
  });

  test('answers not found for an email the application has not signed up', async () => {
    const { office, add } = await setup();
    await add('app_2', 'usr_1', 'admin');

    await expect(portalSignInLink(office)('app_1', 'usr_1@example.com')).rejects.toThrow(NotFound);
  });
});
