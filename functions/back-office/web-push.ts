/** An application's VAPID keys for web push: the public half on the application, the private half in the secret store. */
import webpush from 'web-push';
import { Conflict, ValidationError } from '../domain/errors';
import { vapidPrivateKeySecret } from '../domain/push';
import { requireApp } from './apps';
import type { AuditActor } from '../domain/audit';
import { audit } from './audit';
import type { BackOffice } from './ports';

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
 * Audited as `vapid.generated` or `vapid.rotated` with the public key and
 * subject; the private key is in the secret store only.
 */
export async function generateVapidKeys(
  office: Pick<BackOffice, 'apps' | 'secrets' | 'audit' | 'now'>,
  appId: string,
  actor: AuditActor,
  options: { subject?: string; rotate?: boolean } = {},
): Promise<{ publicKey: string; subject: string }> {
  const app = await requireApp(office, appId);
  if (app.vapid_public_key && !options.rotate) {
    throw new Conflict(`application ${appId} has VAPID keys already; rotating replaces them (existing subscriptions stop receiving)`);
  }
  const fallback = app.portal_origin?.startsWith('https://') ? app.portal_origin : undefined;
  const subject = options.subject ?? app.vapid_subject ?? fallback;
  if (!subject) throw new ValidationError(['a subject is required, e.g. mailto:push@example.com'], 'subject is missing');
  const checked = checkVapidSubject(subject);
  const keys = webpush.generateVAPIDKeys();
  await office.secrets.put(vapidPrivateKeySecret(appId), keys.privateKey);
  await office.apps.update(appId, { vapid_public_key: keys.publicKey, vapid_subject: checked });
  await audit(office)({
    appId,
    actor,
    action: app.vapid_public_key ? 'vapid.rotated' : 'vapid.generated',
    target: `app:${appId}`,
    details: { public_key: keys.publicKey, subject: checked },
  });
  return { publicKey: keys.publicKey, subject: checked };
}
