/**
 * Back-office operations (applications and keys), shared by the admin command
 * line and the local stack's demo application. They work through the store
 * ports, so the same code serves the local stack and a deployed one.
 */
import { hashApiKey, newApiKey, newAppId, newKeyId, type ApiKeyRecord, type Scope } from '../functions/shared/domain/api-keys';
import type { App, AppStore, KeyStore } from '../functions/shared/domain/apps';
import { NotFound, ValidationError } from '../functions/shared/domain/errors';
import type { Rejection, RejectionLog } from '../functions/shared/domain/timeline';

export interface BackOffice {
  apps: AppStore;
  keys: KeyStore;
  rejections: RejectionLog;
  now?: () => Date;
}

/** What may be shown of a key: never the key, never its hash. */
export type KeySummary = Omit<ApiKeyRecord, 'key_hash'>;

/** An origin: scheme, host and optional port, nothing more (`https://play.example.com`). */
export function checkOrigin(value: string, field: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ValidationError([`${field} must be an origin such as https://portal.example.com`], `${field} is invalid`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.origin !== value.replace(/\/$/, '')) {
    throw new ValidationError([`${field} must be an origin such as https://portal.example.com`], `${field} is invalid`);
  }
  return url.origin;
}

export async function createApp(
  office: BackOffice,
  input: { name: string; portalOrigin?: string; siteOrigins?: string[] },
): Promise<App> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 200) throw new ValidationError(['name must be 1 to 200 characters'], 'name is invalid');
  const app: App = {
    app_id: newAppId(),
    name,
    created_at: (office.now?.() ?? new Date()).toISOString(),
    ...(input.portalOrigin ? { portal_origin: checkOrigin(input.portalOrigin, 'portal origin') } : {}),
    ...(input.siteOrigins?.length ? { site_origins: input.siteOrigins.map((o) => checkOrigin(o, 'site origin')) } : {}),
  };
  await office.apps.create(app);
  return app;
}

export async function requireApp(office: BackOffice, appId: string): Promise<App> {
  const app = await office.apps.get(appId);
  if (!app) throw new NotFound(`no application ${appId}`);
  return app;
}

/** Issues a key; the key itself is returned once and only its hash is stored. */
export async function issueKey(office: BackOffice, appId: string, scope: Scope): Promise<{ key: string; summary: KeySummary }> {
  await requireApp(office, appId);
  const key = newApiKey(scope);
  const record: ApiKeyRecord = {
    key_hash: hashApiKey(key),
    key_id: newKeyId(),
    app_id: appId,
    scope,
    created_at: (office.now?.() ?? new Date()).toISOString(),
  };
  await office.keys.create(record);
  const { key_hash: _hash, ...summary } = record;
  return { key, summary };
}

export async function listKeys(office: BackOffice, appId: string): Promise<KeySummary[]> {
  await requireApp(office, appId);
  const keys = await office.keys.listByApp(appId);
  return keys.map(({ key_hash: _hash, ...summary }) => summary).sort((a, b) => a.created_at.localeCompare(b.created_at));
}

export async function revokeKey(office: BackOffice, appId: string, keyId: string): Promise<void> {
  await requireApp(office, appId);
  if (!(await office.keys.revoke(appId, keyId, office.now?.() ?? new Date()))) {
    throw new NotFound(`application ${appId} has no key ${keyId}`);
  }
}

/** Records the consumers rejected when applying them, newest first, with the reason. */
export async function listRejections(office: BackOffice, appId: string, limit: number): Promise<Rejection[]> {
  await requireApp(office, appId);
  return office.rejections.list(appId, limit);
}
