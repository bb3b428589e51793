/**
 * Identity verification of an application's browser key (docs/api.md, "The
 * browser key"): its identity secret, and turning verification off or on.
 * The secret is shown once, when made; the service keeps it in the secret
 * store only.
 */
import type { App } from '../domain/apps';
import { identitySecretName, newIdentitySecret } from '../domain/identity';
import { requireApp } from './apps';
import type { AuditActor } from '../domain/audit';
import { audit } from './audit';
import type { BackOffice } from './ports';

/**
 * Makes a new identity secret and returns it, once. The previous secret stops
 * proving anything within five minutes (the functions' cache): the
 * integrator's server must compute proofs with the new one. Audited as
 * `identity_secret.rotated`, without the secret.
 */
export async function rotateIdentitySecret(office: Pick<BackOffice, 'apps' | 'secrets' | 'audit' | 'now'>, appId: string, actor: AuditActor): Promise<string> {
  await requireApp(office, appId);
  const secret = newIdentitySecret();
  await office.secrets.put(identitySecretName(appId), secret);
  await audit(office)({ appId, actor, action: 'identity_secret.rotated', target: `app:${appId}` });
  return secret;
}

/**
 * Turns identity verification on or off. Off, anyone who reads the page's
 * browser key may add a subscription to, pause, or empty the tokens of any
 * profile whose id they know or guess. Audited as
 * `app.identity_verification_changed` (`{from, to}`) when it changes.
 */
export async function setIdentityVerification(office: Pick<BackOffice, 'apps' | 'audit' | 'now'>, appId: string, actor: AuditActor, on: boolean): Promise<App> {
  const before = await requireApp(office, appId);
  const from = before.identity_verification ?? 'on';
  const to = on ? 'on' : 'off';
  const updated = await office.apps.update(appId, { identity_verification: to });
  if (from !== to) await audit(office)({ appId, actor, action: 'app.identity_verification_changed', target: `app:${appId}`, details: { from, to } });
  return updated;
}

/** Whether the application has an identity secret (never what it is). */
export async function hasIdentitySecret(office: Pick<BackOffice, 'secrets'>, appId: string): Promise<boolean> {
  return office.secrets.exists(identitySecretName(appId));
}
