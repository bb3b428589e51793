/**
 * An affiliate's postbacks as an operator (the admin command line) and the
 * affiliate portal (its Postbacks page) manage them: the URL template, its signing secret, and
 * the delivery log. The secret is shown when it is made (the URL's first
 * setting, or a rotation) and never again.
 */
import { planOn } from './deals';
import type { AppStore } from '../domain/apps';
import type { AuditActor } from '../domain/audit';
import { NotFound, ValidationError } from '../domain/errors';
import type { Plan } from '../domain/affiliate-program';
import {
  newPostbackSecret,
  postbackEventProblems,
  postbackEventsOf,
  postbackSecretName,
  postbackUrlProblems,
  type PostbackEvent,
  type PostbackLogEntry,
} from '../domain/postbacks';
import { requireApp } from './apps';
import { audit } from './audit';
import type { BackOffice } from './ports';

export interface PostbackSettings {
  app_id: string;
  affiliate_id: string;
  postback_url: string | null;
  /** Only when it was made just now: store it, it is not shown again. */
  signing_secret?: string;
}

/** What changing the URL or the secret needs: no delivery log. */
type Office = Settings & Pick<BackOffice, 'secrets'> & { postbacks: Pick<BackOffice['postbacks'], 'allowedHosts'> };
/** What reading the URL, or turning postbacks off, needs: no secret store. */
type Settings = { apps: Pick<AppStore, 'get'>; postbacks: Pick<BackOffice['postbacks'], 'settings'> };

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
  // Asked, not read: the functions that set URLs may not read signing secrets.
  if (!(await office.secrets.exists(name))) {
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

/** The affiliate's URL template (null: postbacks are off) and the events it receives while one is set (registration and FTD unless it chose). */
export async function postbackSettingsOf(
  office: Settings,
  appId: string,
  affiliateId: string,
): Promise<{ postback_url: string | null; postback_events: PostbackEvent[] }> {
  await requireApp(office, appId);
  const found = await office.postbacks.settings.get(appId, affiliateId);
  if (!found.exists) throw new NotFound(`no affiliate ${affiliateId} in application ${appId}`);
  return { postback_url: found.postback_url ?? null, postback_events: postbackEventsOf(found.postback_events) };
}

/** Chooses the events the affiliate receives (any of registration, ftd, cpa, deposit; none is a choice too). Takes effect within 30 s. */
export async function setPostbackEvents(office: Settings, appId: string, affiliateId: string, events: readonly unknown[]): Promise<PostbackEvent[]> {
  await requireApp(office, appId);
  const problems = postbackEventProblems(events);
  if (problems.length > 0) throw new ValidationError(problems, 'postback events are invalid');
  const chosen = postbackEventsOf(events as string[]);
  if (!(await office.postbacks.settings.setEvents(appId, affiliateId, chosen))) throw new NotFound(`no affiliate ${affiliateId} in application ${appId}`);
  return chosen;
}

/** The plan a CPA postback's `{payout}` comes from: the plan version of the affiliate's deal in force on the FTD's day. */
export function payoutPlan(office: Parameters<typeof planOn>[0]) {
  return (appId: string, affiliateId: string, day: string): Promise<Plan | undefined> => planOn(office, appId, affiliateId, day);
}

/** The affiliate's URL template, or null when postbacks are off. */
export async function postbackUrlOf(office: Settings, appId: string, affiliateId: string): Promise<string | null> {
  return (await requireAffiliate(office, appId, affiliateId)) ?? null;
}

export const postbackLogLimits = { default: 50, max: 500 } as const;

/** The affiliate's delivery log, newest attempt first (90 days at most). */
export async function postbackDeliveries(
  office: { apps: Pick<AppStore, 'get'>; postbacks: BackOffice['postbacks'] },
  appId: string,
  affiliateId: string,
  limit: number = postbackLogLimits.default,
): Promise<PostbackLogEntry[]> {
  await requireAffiliate(office, appId, affiliateId);
  if (!Number.isInteger(limit) || limit < 1 || limit > postbackLogLimits.max) {
    throw new ValidationError([`limit must be an integer from 1 to ${postbackLogLimits.max}`], 'request is invalid');
  }
  return office.postbacks.log.recent(appId, affiliateId, limit);
}

/** What an operator does to an affiliate's postbacks: a new URL template, postbacks off, or a new signing secret. */
export type OperatorPostbackChange = { action: 'set'; postback_url: string } | { action: 'off' } | { action: 'rotate_secret' };

const changeActions: Record<OperatorPostbackChange['action'], string> = {
  set: 'affiliate.postback_url_set',
  off: 'affiliate.postbacks_off',
  rotate_secret: 'affiliate.postback_secret_rotated',
};

/**
 * An operator's change to an affiliate's postbacks (the console, the admin command line), audited as
 * `affiliate.postback_url_set` (with its host), `affiliate.postbacks_off` or `affiliate.postback_secret_rotated`:
 * never with the secret, which only the answer carries, once.
 */
export async function changeAffiliatePostbacks(
  office: Office & Pick<BackOffice, 'audit' | 'now'>,
  appId: string,
  actor: AuditActor,
  affiliateId: string,
  change: OperatorPostbackChange,
): Promise<PostbackSettings> {
  const settings =
    change.action === 'set'
      ? await setPostbackUrl(office, appId, affiliateId, change.postback_url)
      : change.action === 'off'
        ? await clearPostbackUrl(office, appId, affiliateId)
        : await rotatePostbackSecret(office, appId, affiliateId);
  await audit(office)({
    appId,
    actor,
    action: changeActions[change.action],
    target: `affiliate:${affiliateId}`,
    // The host only: the rest of the template (an affiliate's tracker tokens) stays with the affiliate, as the console shows it.
    ...(change.action === 'set' ? { details: { host: new URL(change.postback_url).host, secret_made: settings.signing_secret !== undefined } } : {}),
  });
  return settings;
}
