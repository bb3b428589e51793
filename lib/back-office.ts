/**
 * Back-office operations (applications and keys), shared by the admin command
 * line and the local stack's demo application. They work through the store
 * ports, so the same code serves the local stack and a deployed one.
 */
import { hashApiKey, newApiKey, newAppId, newKeyId, type ApiKeyRecord, type Scope } from '../functions/shared/domain/api-keys';
import type { App, AppStore, KeyStore } from '../functions/shared/domain/apps';
import type { AffiliateStore, AffiliateSummary } from '../functions/shared/domain/affiliates';
import { Conflict, NotFound, ValidationError } from '../functions/shared/domain/errors';
import type { Rejection, RejectionLog } from '../functions/shared/domain/timeline';
import { newChannelId, type Channel, type ChannelStore } from '../functions/shared/domain/channels';
import { displayNameSchema, emailAddressSchema, emailLimits } from '../functions/shared/domain/email';
import { compileValidator } from '../functions/shared/domain/validation';
import { vapidPrivateKeySecret } from '../functions/shared/domain/push';
import type { SecretStore } from '../functions/shared/domain/secrets';
import webpush from 'web-push';

export interface BackOffice {
  apps: AppStore;
  keys: KeyStore;
  rejections: RejectionLog;
  affiliates: AffiliateStore;
  channels: ChannelStore;
  /** VAPID private keys: SSM Parameter Store in AWS, a DynamoDB table locally (lib/secrets.ts). */
  secrets: SecretStore;
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

// The same rules as send_email's own sender fields: a channel's defaults always make a valid sender.
const checkFromEmail = compileValidator<string>(emailAddressSchema, 'from email');
const checkFromName = compileValidator<string>(displayNameSchema, 'from name');

/** Creates an enabled email channel: send_email refers to it by its id. */
export async function createChannel(
  office: BackOffice,
  input: { appId: string; name: string; fromEmail: string; fromName: string },
): Promise<Channel> {
  await requireApp(office, input.appId);
  const name = input.name.trim();
  if (name.length === 0 || name.length > emailLimits.channelNameLength) {
    throw new ValidationError([`name must be 1 to ${emailLimits.channelNameLength} characters`], 'name is invalid');
  }
  const channel: Channel = {
    app_id: input.appId,
    channel_id: newChannelId(),
    name,
    from_email: checkFromEmail(input.fromEmail.trim()),
    from_name: checkFromName(input.fromName),
    enabled: true,
    created_at: (office.now?.() ?? new Date()).toISOString(),
  };
  await office.channels.create(channel);
  return channel;
}

export async function listChannels(office: BackOffice, appId: string): Promise<Channel[]> {
  await requireApp(office, appId);
  return office.channels.listByApp(appId);
}

/** Enables or disables a channel; send_email answers 404 for a disabled one from the next request on. */
export async function setChannelEnabled(office: BackOffice, appId: string, channelId: string, enabled: boolean): Promise<Channel> {
  await requireApp(office, appId);
  const channel = await office.channels.setEnabled(appId, channelId, enabled, office.now?.() ?? new Date());
  if (!channel) throw new NotFound(`application ${appId} has no channel ${channelId}`);
  return channel;
}

/** An application's registered affiliates, oldest first; never a password or its hash. */
export async function listAffiliates(office: BackOffice, appId: string): Promise<AffiliateSummary[]> {
  await requireApp(office, appId);
  return office.affiliates.list(appId);
}

/** A VAPID subject: push services write to it about problems (RFC 8292); `mailto:` or `https:`. */
export function checkVapidSubject(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  const valid = url && ((url.protocol === 'mailto:' && /^[^@\s]+@[^@\s]+$/.test(url.pathname)) || url.protocol === 'https:');
  if (!valid || value.length > 512) {
    throw new ValidationError(['subject must be a mailto: address or an https: URL, e.g. mailto:push@example.com'], 'subject is invalid');
  }
  return value;
}

/**
 * Generates an application's VAPID key pair for web push: the private key goes
 * to the secret store first, then the public key and subject onto the
 * application, so a published public key always has its private half.
 * Replacing existing keys (`rotate`) stops every existing subscription from
 * receiving until its page runs initNotification again, which re-subscribes.
 */
export async function generateVapidKeys(
  office: BackOffice,
  appId: string,
  options: { subject?: string; rotate?: boolean } = {},
): Promise<{ publicKey: string; subject: string }> {
  const app = await requireApp(office, appId);
  if (app.vapid_public_key && !options.rotate) {
    throw new Conflict(`application ${appId} has VAPID keys already; --rotate replaces them (existing subscriptions stop receiving)`);
  }
  const fallback = app.portal_origin?.startsWith('https://') ? app.portal_origin : undefined;
  const subject = options.subject ?? app.vapid_subject ?? fallback;
  if (!subject) throw new ValidationError(['a subject is required: --subject mailto:push@example.com'], 'subject is missing');
  const checked = checkVapidSubject(subject);
  const keys = webpush.generateVAPIDKeys();
  await office.secrets.put(vapidPrivateKeySecret(appId), keys.privateKey);
  await office.apps.update(appId, { vapid_public_key: keys.publicKey, vapid_subject: checked });
  return { publicKey: keys.publicKey, subject: checked };
}
