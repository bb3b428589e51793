/**
 * The links page: the signed-in affiliate's links and the creation of one,
 * through the programme's link use cases (back-office/affiliate-links.ts), so
 * the portal and `npm run admin -- link …` apply the same rules.
 */
import { h } from 'preact';
import { clickAddress, createLink, listLinks, type LinkOffice } from '../back-office/affiliate-links';
import type { LinkRecord } from '../domain/affiliate-program';
import { clickParameters, SUB_ID_PATTERN } from '../domain/tracking-links';
import { ValidationError } from '../domain/errors';
import { portalCsrf } from '../domain/sessions';
import { logger } from '../runtime/logger';
import type { PortalWork, SignedInVisit } from './checks';
import { LinksPage, type BuiltLink, type LinksView } from './pages/links';
import { page, seeOther } from './render';

export interface LinkFieldErrors {
  name?: string;
  landing_url?: string;
}

/** The use case's refusals, by field, in words for a person rather than an API client. */
export function linkFieldErrors(error: ValidationError): LinkFieldErrors {
  const errors: LinkFieldErrors = {};
  for (const problem of error.errors) {
    if (problem.startsWith('landing_url')) errors.landing_url ??= `The landing page${problem.slice('landing_url'.length)}.`;
    else if (problem.startsWith('name')) errors.name ??= `The name${problem.slice('name'.length)}.`;
  }
  return errors;
}

export type CreateLinkOutcome = { created: true; link: LinkRecord } | { created: false; errors: LinkFieldErrors };

export async function createLinkFor(
  create: (appId: string, affiliateId: string, input: { name: string; landing_url: string }) => Promise<LinkRecord>,
  appId: string,
  affiliateId: string,
  input: { name: string; landing_url: string },
): Promise<CreateLinkOutcome> {
  try {
    return { created: true, link: await create(appId, affiliateId, input) };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return { created: false, errors: linkFieldErrors(error) };
  }
}

/**
 * The link builder's answer (a GET form: it works without script): the click
 * address of one of the affiliate's links with its sub-id, under the click's
 * own rule for `urm_aff`; nothing when the form was not sent.
 */
export function builtLink(links: { link_id: string; click_address: string }[], query: Record<string, string | undefined> | null): BuiltLink | undefined {
  const linkId = query?.link;
  const subId = (query?.sub_id ?? '').trim();
  if (linkId === undefined) return undefined;
  const link = links.find((candidate) => candidate.link_id === linkId);
  if (!link) return { link_id: '', sub_id: subId, error: 'Choose one of your links.' };
  if (subId === '') return { link_id: linkId, sub_id: subId, url: link.click_address };
  if (!SUB_ID_PATTERN.test(subId)) return { link_id: linkId, sub_id: subId.slice(0, 200), error: 'Use 1 to 100 letters, digits, dots, underscores or dashes.' };
  return { link_id: linkId, sub_id: subId, url: `${link.click_address}?${new URLSearchParams({ [clickParameters.subId]: subId })}` };
}

export function linksWork(office: LinkOffice): Pick<PortalWork, 'AffiliateLinksPage' | 'AffiliateCreateLink'> {
  const create = createLink(office);
  const list = listLinks(office);

  /** The page for the visit: the affiliate's links, each with its click address. */
  const linksPage = async (visit: SignedInVisit, status: number, view: Pick<LinksView, 'csrf' | 'created' | 'form'>, build = false) => {
    const { app, appId, affiliate, portalOrigin } = visit;
    // On the portal origin, which serves /t/{link_id} as it serves this page; without one, only the path (never the request's host).
    const links = (await list(appId, affiliate.affiliate_id)).map((link) => ({ ...link, click_address: clickAddress(portalOrigin ?? '', link.link_id) }));
    const built = build ? builtLink(links, visit.event.queryStringParameters) : undefined;
    return page(
      built && 'error' in built ? 400 : status,
      h(LinksPage, {
        built,
        appName: app.name,
        name: `${affiliate.first_name} ${affiliate.last_name}`,
        links,
        siteOrigins: app.site_origins ?? [],
        withoutPortalOrigin: !portalOrigin,
        ...view,
      }),
    );
  };

  return {
    AffiliateLinksPage: async (visit) =>
      linksPage(visit, 200, { csrf: portalCsrf.tokenFor(visit.sessionId), created: visit.event.queryStringParameters?.created }, true),

    AffiliateCreateLink: async (visit) => {
      const { appId, affiliate, form } = visit;
      const input = { name: form.name ?? '', landing_url: form.landing_url ?? '' };
      const outcome = await createLinkFor(create, appId, affiliate.affiliate_id, input);
      if (!outcome.created) return linksPage(visit, 400, { csrf: form.csrf, form: { ...input, errors: outcome.errors } });
      logger.info('Affiliate link created', { app_id: appId, affiliate_id: affiliate.affiliate_id, link_id: outcome.link.link_id });
      return seeOther(`links?created=${encodeURIComponent(outcome.link.link_id)}`);
    },
  };
}
