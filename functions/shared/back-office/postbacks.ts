/**
 * An affiliate's postbacks as an operator (the admin command line) and the
 * affiliate portal (its Postbacks page) manage them: the URL template, its signing secret, and
 * the delivery log. The secret is shown when it is made (the URL's first
 * setting, or a rotation) and never again.
 */
import { NotFound, ValidationError } from '../domain/errors';
import {
  newPostbackSecret,
  postbackSecretName,
  postbackUrlProblems,
  type PostbackLogEntry,
} from '../domain/postbacks';
import { requireApp } from './apps';
import type { BackOffice } from './ports';

export interface PostbackSettings {
  app_id: string;
  affiliate_id: string;
  postback_url: string | null;
  /** Only when it was made just now: store it, it is not shown again. */
  signing_secret?: string;
}

type Office = Pick<BackOffice, 'apps' | 'secrets' | 'postbacks'>;
/** What reading the settings and the log, or turning postbacks off, needs: no secret store. */
type Settings = Pick<BackOffice, 'apps' | 'postbacks'>;

async function requireAffiliate(office: Settings, appId: string, affiliateId: string): Promise<string | undefined> {
  await requireApp(office, appId);
  const found = await office.postbacks.settings.get(appId, affiliateId);
  if (!found.exists) throw new NotFound(`no affiliate ${affiliateId} in application ${appId}`);
  return found.postback_url;
}

/**
 * Sets the URL template (docs/api.md, "Postbacks"): https on port 443 to a
 * public host, at most 1,000 characters, the documented placeholders only.
 * The first time, a signing secret is made and returned.
 */
export async function setPostbackUrl(office: Office, appId: string, affiliateId: string, url: string): Promise<PostbackSettings> {
  await requireAffiliate(office, appId, affiliateId);
  const problems = postbackUrlProblems(url, office.postbacks.allowedHosts ?? []);
  if (problems.length > 0) throw new ValidationError(problems, 'postback url is invalid');
  const name = postbackSecretName(appId, affiliateId);
  let signingSecret: string | undefined;
  if ((await office.secrets.get(name)) === undefined) {
    signingSecret = newPostbackSecret();
    await office.secrets.put(name, signingSecret);
  }
  // The secret first: a URL is never set without one to sign with.
  await office.postbacks.settings.set(appId, affiliateId, url);
  return { app_id: appId, affiliate_id: affiliateId, postback_url: url, ...(signingSecret ? { signing_secret: signingSecret } : {}) };
}

/** Turns postbacks off: due ones are dropped when their turn comes; the secret stays for a later URL. */
export async function clearPostbackUrl(office: Settings, appId: string, affiliateId: string): Promise<PostbackSettings> {
  await requireAffiliate(office, appId, affiliateId);
  await office.postbacks.settings.set(appId, affiliateId, undefined);
  return { app_id: appId, affiliate_id: affiliateId, postback_url: null };
}

/** A new signing secret, returned once; postbacks are signed with it from the sender's next run. */
export async function rotatePostbackSecret(office: Office, appId: string, affiliateId: string): Promise<PostbackSettings> {
  const url = await requireAffiliate(office, appId, affiliateId);
  const signingSecret = newPostbackSecret();
  await office.secrets.put(postbackSecretName(appId, affiliateId), signingSecret);
  return { app_id: appId, affiliate_id: affiliateId, postback_url: url ?? null, signing_secret: signingSecret };
}

/** The affiliate's URL template, or null when postbacks are off. */
export async function postbackUrlOf(office: Settings, appId: string, affiliateId: string): Promise<string | null> {
  return (await requireAffiliate(office, appId, affiliateId)) ?? null;
}

export const postbackLogLimits = { default: 50, max: 500 } as const;

/** The affiliate's delivery log, newest attempt first (90 days at most). */
export async function postbackDeliveries(office: Settings, appId: string, affiliateId: string, limit: number = postbackLogLimits.default): Promise<PostbackLogEntry[]> {
  await requireAffiliate(office, appId, affiliateId);
  if (!Number.isInteger(limit) || limit < 1 || limit > postbackLogLimits.max) {
    throw new ValidationError([`limit must be an integer from 1 to ${postbackLogLimits.max}`], 'request is invalid');
  }
  return office.postbacks.log.recent(appId, affiliateId, limit);
}
