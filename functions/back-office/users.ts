/**
 * The application's enterprise users and their roles. Who may call these is
 * decided by the caller (the console's operations allow admins only); the
 * rule that an application always keeps an admin is the store's, held in one
 * transaction.
 */
import type { AuditActor } from '../domain/audit';
import type { EnterpriseUser, Role } from '../domain/enterprise';
import { Conflict, NotFound } from '../domain/errors';
import { audit } from './audit';
import type { BackOffice } from './ports';

export const userListLimits = { pageSize: 50, maxPageSize: 100 } as const;

/** A user as the back office shows it. */
export interface UserView {
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  role: Role;
  created_at: string;
}

export function userView(user: EnterpriseUser): UserView {
  return {
    user_id: user.user_id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    role: user.role,
    created_at: user.created_at,
  };
}

/** The application's users, oldest first. */
export function listUsers(office: Pick<BackOffice, 'users'>) {
  return async (appId: string, options: { limit?: number; cursor?: string } = {}): Promise<{ users: UserView[]; cursor?: string }> => {
    const page = await office.users.list(appId, {
      limit: Math.min(options.limit ?? userListLimits.pageSize, userListLimits.maxPageSize),
      cursor: options.cursor,
    });
    return { users: page.users.map(userView), ...(page.cursor ? { cursor: page.cursor } : {}) };
  };
}

/**
 * Gives a user of the application another role, audited. Setting the role it
 * has changes nothing and writes no entry. 404 for a user not in the
 * application; 409 when it would leave the application without an admin.
 */
export function changeUserRole(office: Pick<BackOffice, 'users' | 'audit' | 'now'>) {
  const record = audit(office);
  return async (appId: string, actor: AuditActor, userId: string, role: Role): Promise<UserView> => {
    const user = await office.users.get(appId, userId);
    if (!user) throw new NotFound('user not found');
    if (user.role === role) return userView(user);
    const change = await office.users.changeRole(appId, userId, user.role, role);
    if (change.outcome === 'not-found') throw new NotFound('user not found');
    if (change.outcome === 'stale') throw new Conflict("the user's role was changed meanwhile; read it again and retry");
    if (change.outcome === 'last-admin') throw new Conflict('the application must keep at least one admin');
    await record({ appId, actor, action: 'user.role_changed', target: `user:${userId}`, details: { from: user.role, to: role } });
    return userView(change.user);
  };
}
