/**
 * The application's webhook signing secret (docs/api.md, "Webhooks"): made
 * or replaced here, shown once; the service keeps it in the secret store only.
 */
import type { AuditActor } from '../domain/audit';
import { newWebhookSecret, webhookSecretName } from '../domain/webhooks';
import { requireApp } from './apps';
import { audit } from './audit';
import type { BackOffice } from './ports';

/**
 * Makes a new webhook secret and returns it, once. Senders sign with it within
 * a minute (their cache), so a receiver accepts both for that minute. Audited
 * as `webhook_secret.rotated`, without the secret.
 */
export async function rotateWebhookSecret(office: Pick<BackOffice, 'apps' | 'secrets' | 'audit' | 'now'>, appId: string, actor: AuditActor): Promise<string> {
  await requireApp(office, appId);
  const secret = newWebhookSecret();
  await office.secrets.put(webhookSecretName(appId), secret);
  await audit(office)({ appId, actor, action: 'webhook_secret.rotated', target: `app:${appId}` });
  return secret;
}
