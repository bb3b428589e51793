/**
 * In-memory implementations of the enterprise ports, with the same contracts
 * as the DynamoDB adapters (one email per application), so cores are tested
 * without a mock library. Sessions and sign-in tokens: test/support/sessions.ts.
 */
import type { AuditEntry, AuditLog } from '../../functions/domain/audit';
import {
  defaultRole,
  emailKey,
  type EnterpriseUser,
  type NewEnterpriseUser,
  type Role,
  type RoleChange,
  type EnterpriseUserStore,
} from '../../functions/domain/enterprise';

export class MemoryUserStore implements EnterpriseUserStore {
  readonly users = new Map<string, EnterpriseUser>();
  readonly claims = new Map<string, string>();

  async get(appId: string, userId: string) {
    return this.users.get(`${appId}#${userId}`);
  }

  async findByEmail(appId: string, email: string) {
    const userId = this.claims.get(`${appId}#${emailKey(email)}`);
    return userId ? this.get(appId, userId) : undefined;
  }

  async create(input: NewEnterpriseUser) {
    const claim = `${input.app_id}#${emailKey(input.email)}`;
    if (this.claims.has(claim)) return undefined;
    const first = ![...this.users.values()].some((other) => other.app_id === input.app_id);
    const user: EnterpriseUser = { ...input, role: input.role ?? (first ? 'admin' : defaultRole) };
    this.claims.set(claim, user.user_id);
    this.users.set(`${user.app_id}#${user.user_id}`, user);
    return user;
  }

  async list(appId: string, options: { limit: number; cursor?: string }) {
    const all = [...this.users.values()].filter((user) => user.app_id === appId).sort((a, b) => a.created_at.localeCompare(b.created_at));
    const from = options.cursor === undefined ? 0 : all.findIndex((user) => user.user_id === options.cursor) + 1;
    if (options.cursor !== undefined && from === 0) return { users: [] };
    const users = all.slice(from, from + options.limit);
    return from + options.limit < all.length ? { users, cursor: users[users.length - 1].user_id } : { users };
  }

  async changeRole(appId: string, userId: string, from: Role, to: Role): Promise<RoleChange> {
    const user = await this.get(appId, userId);
    if (!user) return { outcome: 'not-found' };
    if (user.role !== from) return { outcome: 'stale' };
    const admins = [...this.users.values()].filter((other) => other.app_id === appId && other.role === 'admin').length;
    if (from === 'admin' && to !== 'admin' && admins <= 1) return { outcome: 'last-admin' };
    const changed = { ...user, role: to };
    this.users.set(`${appId}#${userId}`, changed);
    return { outcome: 'changed', user: changed };
  }
}

/** A clock the test moves by hand. */
export class FakeClock {
  constructor(private current: Date) {}

  readonly now = () => new Date(this.current);

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** Ids in sequence: `usr_1`, `usr_2`, … */
export function sequentialIds(prefix: string): () => string {
  let next = 0;
  return () => `${prefix}${++next}`;
}

/** The audit log in memory, newest first like the table read backwards; cursors are entry ids. */
export class MemoryAuditLog implements AuditLog {
  readonly entries: AuditEntry[] = [];

  async append(entry: AuditEntry) {
    this.entries.push(entry);
  }

  async page(appId: string, options: { limit: number; cursor?: string }) {
    const mine = this.entries.filter((entry) => entry.app_id === appId).sort((a, b) => b.entry_id.localeCompare(a.entry_id));
    const from = options.cursor === undefined ? 0 : mine.filter((entry) => entry.entry_id >= options.cursor!).length;
    const entries = mine.slice(from, from + options.limit);
    return from + options.limit < mine.length ? { entries, cursor: entries[entries.length - 1].entry_id } : { entries };
  }
}
