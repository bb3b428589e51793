/** API keys: issued once, kept only as a hash, listed without it, revoked; issuing and revoking are audited. */
import { hashApiKey, newApiKey, newKeyId, type ApiKeyRecord, type Scope } from '../domain/api-keys';
import type { AuditActor } from '../domain/audit';
import { NotFound } from '../domain/errors';
import { requireApp } from './apps';
import { audit } from './audit';
import { nowOf, type BackOffice } from './ports';

/** What may be shown of a key: never the key, never its hash. */
export type KeySummary = Omit<ApiKeyRecord, 'key_hash'>;

/**
 * Issues a key; the key itself is returned once and only its hash is stored.
 * The audit entry names the key by its id, never the key.
 */
export async function issueKey(
  office: Pick<BackOffice, 'apps' | 'keys' | 'audit' | 'now'>,
  appId: string,
  actor: AuditActor,
  scope: Scope,
): Promise<{ key: string; summary: KeySummary }> {
  await requireApp(office, appId);
  const key = newApiKey(scope);
  const record: ApiKeyRecord = {
    key_hash: hashApiKey(key),
    key_id: newKeyId(),
    app_id: appId,
    scope,
    created_at: nowOf(office).toISOString(),
  };
  await office.keys.create(record);
  await audit(office)({ appId, actor, action: 'key.issued', target: `key:${record.key_id}`, details: { scope } });
  const { key_hash: _hash, ...summary } = record;
  return { key, summary };
}

export async function listKeys(office: Pick<BackOffice, 'apps' | 'keys'>, appId: string): Promise<KeySummary[]> {
  await requireApp(office, appId);
  const keys = await office.keys.listByApp(appId);
  return keys.map(({ key_hash: _hash, ...summary }) => summary).sort((a, b) => a.created_at.localeCompare(b.created_at));
}

/** Revokes one of the application's keys (404 for a key of another application, as for an unknown one). */
export async function revokeKey(office: Pick<BackOffice, 'apps' | 'keys' | 'audit' | 'now'>, appId: string, actor: AuditActor, keyId: string): Promise<void> {
  await requireApp(office, appId);
  if (!(await office.keys.revoke(appId, keyId, nowOf(office)))) {
    throw new NotFound(`application ${appId} has no key ${keyId}`);
  }
  await audit(office)({ appId, actor, action: 'key.revoked', target: `key:${keyId}` });
}

/** A key as the console shows it: `revoked_at` null while it works. */
export function keyView(summary: KeySummary): { key_id: string; scope: Scope; created_at: string; revoked_at: string | null } {
  return { key_id: summary.key_id, scope: summary.scope, created_at: summary.created_at, revoked_at: summary.revoked_at ?? null };
}
