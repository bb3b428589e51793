/**
 * An affiliate's tracking links: created by the affiliate in the portal or by
 * an operator with `npm run admin -- link …`, one implementation behind both.
 * A link leads to a landing URL on one of the application's site origins,
 * so a link can only ever send visitors to the operator's own sites.
 */
import type { LinkRecord, LinkStore } from '../domain/affiliate-program';
import type { AffiliateStore } from '../domain/affiliates';
import type { AppStore } from '../domain/apps';
import type { AuditActor } from '../domain/audit';
import { Conflict, NotFound, ValidationError } from '../domain/errors';
import { isHttpUrl } from '../domain/links';
import { clickParameters, linkLimits, newLinkId } from '../domain/tracking-links';
import { requireApp } from './apps';
import { audit } from './audit';
import { nowOf, type BackOffice } from './ports';

/** What the link use cases read and write: no more than they call, so a portal or a test passes only those. */
export interface LinkOffice extends Pick<BackOffice, 'now'> {
  apps: Pick<AppStore, 'get'>;
  affiliates: Pick<AffiliateStore, 'get'>;
  links: Pick<LinkStore, 'create' | 'listByAffiliate'>;
}

export interface LinkInput {
  name: string;
  landing_url: string;
}

const CONTROL = /[\u0000-\u001F\u007F]/;

function checkName(name: unknown): string[] {
  if (typeof name !== 'string') return ['name is required'];
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > linkLimits.nameMaxLength) return [`name must be 1 to ${linkLimits.nameMaxLength} characters`];
  if (CONTROL.test(trimmed)) return ['name must not contain control characters'];
  return [];
}

/** The landing URL as stored (the parser's normal form), or the problems with it. */
function checkLandingUrl(value: unknown, siteOrigins: readonly string[]): { url?: string; errors: string[] } {
  if (typeof value !== 'string') return { errors: ['landing_url is required'] };
  if (value.length > linkLimits.landingUrlMaxLength) return { errors: [`landing_url must be at most ${linkLimits.landingUrlMaxLength} characters`] };
  if (!isHttpUrl(value) || CONTROL.test(value)) return { errors: ['landing_url must be an absolute URL starting with https:// or http://'] };
  const url = new URL(value);
  if (url.username || url.password) return { errors: ['landing_url must not carry a user name or password'] };
  if (!siteOrigins.includes(url.origin)) {
    return {
      errors: [
        siteOrigins.length === 0
          ? "landing_url must be on one of the application's site origins, and the application has none yet"
          : `landing_url must be on one of the application's site origins: ${siteOrigins.join(', ')}`,
      ],
    };
  }
  const carried = Object.values(clickParameters).filter((name) => url.searchParams.has(name));
  if (carried.length > 0) return { errors: [`landing_url must not carry ${carried.join(', ')}: each click adds them`] };
  return { url: url.href, errors: [] };
}

async function requireAffiliate(office: LinkOffice, appId: string, affiliateId: string): Promise<void> {
  await requireApp(office, appId);
  if (!(await office.affiliates.get(appId, affiliateId))) throw new NotFound(`no affiliate ${affiliateId} in application ${appId}`);
}

/** A new link of the affiliate; refused (ValidationError naming the field) unless its landing URL is on one of the application's site origins. */
export function createLink(office: LinkOffice) {
  return async (appId: string, affiliateId: string, input: LinkInput): Promise<LinkRecord> => {
    const app = await requireApp(office, appId);
    const landing = checkLandingUrl(input.landing_url, app.site_origins ?? []);
    const errors = [...checkName(input.name), ...landing.errors];
    if (errors.length > 0) throw new ValidationError(errors, 'link is invalid');
    if (!(await office.affiliates.get(appId, affiliateId))) throw new NotFound(`no affiliate ${affiliateId} in application ${appId}`);
    const base = { app_id: appId, affiliate_id: affiliateId, name: input.name.trim(), landing_url: landing.url!, created_at: nowOf(office).toISOString() };
    // A taken id is as likely as guessing a 71-bit number; one more draw settles it.
    for (let attempt = 1; ; attempt++) {
      const link: LinkRecord = { link_id: newLinkId(), ...base };
      try {
        await office.links.create(link);
        return link;
      } catch (error) {
        if (!(error instanceof Conflict) || attempt === 3) throw error;
      }
    }
  };
}

/**
 * A link an operator makes for an affiliate (the console, the admin command line): the same checks as the
 * affiliate's own, audited as `link.created` naming the link and where it lands.
 */
export function createLinkForAffiliate(office: LinkOffice & Pick<BackOffice, 'audit'>) {
  const create = createLink(office);
  return async (appId: string, actor: AuditActor, affiliateId: string, input: LinkInput): Promise<LinkRecord> => {
    const link = await create(appId, affiliateId, input);
    await audit(office)({
      appId,
      actor,
      action: 'link.created',
      target: `affiliate:${affiliateId}`,
      details: { link_id: link.link_id, name: link.name, landing_url: link.landing_url },
    });
    return link;
  };
}

/** The affiliate's links, oldest first. */
export function listLinks(office: LinkOffice) {
  return async (appId: string, affiliateId: string): Promise<LinkRecord[]> => {
    await requireAffiliate(office, appId, affiliateId);
    return office.links.listByAffiliate(appId, affiliateId);
  };
}

/** The click address of a link: `{base_url}/t/{link_id}`. */
export function clickAddress(baseUrl: string, linkId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/t/${linkId}`;
}
