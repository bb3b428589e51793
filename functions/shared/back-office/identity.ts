/**
 * Identity verification of an application's browser key (docs/api.md, "The
 * browser key"): its identity secret, and turning verification off or on.
 * The secret is shown once, when made; the service keeps it in the secret
 * store only.
 */
import type { App } from '../domain/apps';
import { identitySecretName, newIdentitySecret } from '../domain/identity';
import { requireApp } from './apps';
import type { BackOffice } from './ports';

/**
 * Makes a new identity secret and returns it, once. The previous secret stops
 * proving anything within five minutes (the functions' cache): the
 * integrator's server must compute proofs with the new one.
 */
export async function rotateIdentitySecret(office: BackOffice, appId: string): Promise<string> {
  await requireApp(office, appId);
  const secret = newIdentitySecret();
  await office.secrets.put(identitySecretName(appId), secret);
  return secret;
}

/**
 * Turns identity verification on or off. Off, anyone who reads the page's
 * browser key may add a subscription to, pause, or empty the tokens of any
 * profile whose id they know or guess.
 */
export async function setIdentityVerification(office: BackOffice, appId: string, on: boolean): Promise<App> {
  await requireApp(office, appId);
  return office.apps.update(appId, { identity_verification: on ? 'on' : 'off' });
}

/** Whether the application has an identity secret (never what it is). */
export async function hasIdentitySecret(office: BackOffice, appId: string): Promise<boolean> {
  return (await office.secrets.get(identitySecretName(appId))) !== undefined;
}
