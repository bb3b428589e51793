/**
 * Enterprise users, their one-time sign-in tokens and their console sessions
 * (docs/api.md, "Enterprise users"): the records, the ports the cores use, and
 * the rules that need no I/O. The session and token rules they share with the
 * affiliate portal are in sessions.ts and one-time-tokens.ts.
 */
import { randomBytes } from 'node:crypto';
import type { OneTimeToken, OneTimeTokenStore } from './one-time-tokens';
import type { SessionRecord } from './sessions';

export const enterpriseLimits = {
  usersPerSignUp: 100,
  emailLength: 254,
  nameLength: 100,
  userIdLength: 64,
  /** A sign-in token is good for this long, once. */
  tokenLifetimeMs: 5 * 60 * 1000,
} as const;

/**
 * What an enterprise user may do in an application (docs/api.md, "Back office
 * API"): `admin` everything, settings and users; `marketer` players,
 * messaging, affiliates; `viewer` read only.
 */
export const roles = ['admin', 'marketer', 'viewer'] as const;
export type Role = (typeof roles)[number];

/** A user signed up before roles existed reads as this. */
export const defaultRole: Role = 'viewer';

/**
 * The roles sign_up may name: a server key never makes an admin (only the
 * application's first user, once, is one by default). Admins are made by an
 * admin in the console or by the operator's command line.
 */
export const signUpRoles = ['marketer', 'viewer'] as const satisfies readonly Role[];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (roles as readonly string[]).includes(value);
}

export interface EnterpriseUser {
  app_id: string;
  user_id: string;
  /** As first signed up; uniqueness is decided on `emailKey(email)`. */
  email: string;
  first_name: string;
  last_name: string;
  created_at: string;
  role: Role;
}

/** A user to sign up: without a role, the application's first user is `admin` and any later one `viewer`. */
export type NewEnterpriseUser = Omit<EnterpriseUser, 'role'> & { role?: Role };

/** One page of an application's users, oldest first; `cursor` asks for the next page. */
export interface UserPage {
  users: EnterpriseUser[];
  cursor?: string;
}

/** Why a role change was refused. */
export type RoleChange =
  | { outcome: 'changed'; user: EnterpriseUser }
  | { outcome: 'not-found' }
  /** The user's role was no longer `from`: another change came first. */
  | { outcome: 'stale' }
  /** It would leave the application without an admin. */
  | { outcome: 'last-admin' };

export interface EnterpriseUserStore {
  get(appId: string, userId: string): Promise<EnterpriseUser | undefined>;
  /** The application's user with this email (compared by `emailKey`), read consistently. */
  findByEmail(appId: string, email: string): Promise<EnterpriseUser | undefined>;
  /**
   * Creates the user and claims its email atomically, deciding a missing role
   * atomically too (the application's first user is `admin`); undefined,
   * writing nothing, when the email is already claimed.
   */
  create(user: NewEnterpriseUser): Promise<EnterpriseUser | undefined>;
  /** The application's users, oldest first. */
  list(appId: string, options: { limit: number; cursor?: string }): Promise<UserPage>;
  /** Sets the user's role if it still is `from`, never leaving the application without an admin (one transaction). */
  changeRole(appId: string, userId: string, from: Role, to: Role): Promise<RoleChange>;
}

/** A sign-in token as stored: only its hash, never the token. */
export interface StoredSignInToken extends OneTimeToken {
  user_id: string;
}

export type SignInTokenStore = OneTimeTokenStore<StoredSignInToken>;

/** A console session: an enterprise user's, its absolute end stored. */
export interface PortalSession extends SessionRecord {
  user_id: string;
  /** The absolute end: `created_at` + sessionLimits.lifetimeMs. */
  expires_at: string;
}

/** The moment, as the cores see it: injected so expiry is tested without waiting. */
export type Clock = () => Date;

export function newUserId(): string {
  return `usr_${randomBytes(12).toString('hex')}`;
}

/** Emails are unique per application compared case-insensitively, after trimming. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}
