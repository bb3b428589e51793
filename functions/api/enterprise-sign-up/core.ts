/**
 * Signs up enterprise users, idempotently by email per application: an email
 * already signed up returns its user, unchanged, with `created: false`. The
 * same email twice in one request is one user. A user given no role is
 * `viewer`, except the application's first, who is `admin` (decided by the
 * store, atomically); a role given is `marketer` or `viewer` (the schema
 * refuses `admin`: a server key never makes one beside the first).
 */
import pLimit from 'p-limit';
import { emailKey, type Clock, type EnterpriseUser, type EnterpriseUserStore } from '../../domain/enterprise';
import { Forbidden } from '../../domain/errors';
import type { SignedUpUser, SignUpAnswer, SignUpBody, SignUpUser } from './schema';

export interface SignUpPorts {
  users: EnterpriseUserStore;
  newUserId: () => string;
  now: Clock;
  /** How many users are written at once. */
  concurrency?: number;
}

export function signUpEnterpriseUsers(ports: SignUpPorts) {
  const signUpOne = async (appId: string, input: SignUpUser): Promise<SignedUpUser> => {
    const existing = await ports.users.findByEmail(appId, input.email);
    if (existing) return view(existing, false);
    const created = await ports.users.create({
      app_id: appId,
      user_id: ports.newUserId(),
      email: input.email.trim(),
      first_name: input.first_name.trim(),
      last_name: input.last_name.trim(),
      created_at: ports.now().toISOString(),
      ...(input.role ? { role: input.role } : {}),
    });
    if (created) return view(created, true);
    // Another request claimed the email between our read and our write: that user is the one.
    const winner = await ports.users.findByEmail(appId, input.email);
    if (!winner) throw new Error('email claimed but its user is missing');
    return view(winner, false);
  };

  return async (callerAppId: string, body: SignUpBody): Promise<SignUpAnswer> => {
    if (body.app_id !== callerAppId) throw new Forbidden();
    const limit = pLimit(ports.concurrency ?? 10);
    const byEmail = new Map<string, Promise<SignedUpUser>>();
    // The request's first user is written before the others: of an application's first sign-up, it is the one made admin.
    let firstWritten: Promise<unknown> | undefined;
    const answers = body.users.map((input) => {
      const key = emailKey(input.email);
      const first = byEmail.get(key);
      if (first) return first.then((user) => ({ ...user, created: false }));
      const after = firstWritten;
      const result = after ? after.then(() => limit(() => signUpOne(body.app_id, input))) : limit(() => signUpOne(body.app_id, input));
      firstWritten ??= result.catch(() => undefined);
      byEmail.set(key, result);
      return result;
    });
    return { users: await Promise.all(answers) };
  };
}

function view(user: EnterpriseUser, created: boolean): SignedUpUser {
  return { user_id: user.user_id, email: user.email, first_name: user.first_name, last_name: user.last_name, role: user.role, created };
}
