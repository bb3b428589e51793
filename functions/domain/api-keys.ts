import { createHash, randomBytes } from 'node:crypto';

export const scopes = ['server', 'comms', 'browser'] as const;
export type Scope = (typeof scopes)[number];

export function isScope(value: string): value is Scope {
  return (scopes as readonly string[]).includes(value);
}

/**
 * A key is 256 random bits behind a readable prefix that names its scope.
 * Being random, it needs no slow hash: SHA-256 is enough to make the stored
 * form useless to whoever reads the table.
 */
export function newApiKey(scope: Scope): string {
  return `urm_${scope}_${randomBytes(32).toString('base64url')}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function newKeyId(): string {
  return `key_${randomBytes(8).toString('hex')}`;
}

export function newAppId(): string {
  return `app_${randomBytes(10).toString('hex')}`;
}

export interface ApiKeyRecord {
  key_hash: string;
  key_id: string;
  app_id: string;
  scope: Scope;
  created_at: string;
  revoked_at?: string;
}
