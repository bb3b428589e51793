/**
 * GET /t/{link_id}: a click on a tracking link. The visitor always lands on
 * the link's stored landing URL; with the affiliate's parameters when the
 * affiliate is approved. The click counts when it is the visitor's first on
 * the link in 24 hours: one conditional put of the claim, then one record on
 * the stream. Nothing is written for an unknown link, and a failing write
 * never stops the redirect: the click goes uncounted, and the outcome says why.
 */
import type { LinkRecord, LinkStore } from '../../domain/affiliate-program';
import type { AffiliateRecord, AffiliateStore } from '../../domain/affiliates';
import { toStreamEntries, type RecordWriter } from '../../domain/ingest';
import {
  CLICK_DEDUPE_SECONDS,
  clickClaimKey,
  LINK_ID_PATTERN,
  subIdOf,
  trackedLandingUrl,
  visitorOf,
  visitorProfileId,
  type ClickClaims,
} from '../../domain/tracking-links';
import { LookupCache, lookupCacheDefaults, type LookupCacheOptions } from '../../http/lookup-cache';

export interface TrackClickPorts {
  links: Pick<LinkStore, 'get'>;
  affiliates: Pick<AffiliateStore, 'get'>;
  claims: ClickClaims;
  writer: RecordWriter;
  newId: () => string;
  now: () => Date;
  /** Links and affiliates are remembered this long per container: a suspension takes effect within it. */
  cache?: LookupCacheOptions;
}

export interface ClickRequest {
  linkId: string | undefined;
  /** Every `urm_aff` value of the click address. */
  subIds?: readonly string[];
  visitorCookie?: string;
  sourceIp: string;
  userAgent: string;
}

/**
 * - `counted`: the click's record is on the stream.
 * - `repeat`: the visitor's click on this link within 24 hours was counted already.
 * - `not-attributed`: the affiliate is suspended, pending or gone: a plain redirect.
 * - `failed`: a write failed (`failure` says which); the visitor is redirected all the same.
 */
export type ClickCount = 'counted' | 'repeat' | 'not-attributed' | 'failed';

export type ClickOutcome =
  | { outcome: 'unknown-link' }
  | {
      outcome: 'redirect';
      location: string;
      count: ClickCount;
      /** The visitor to keep in the cookie, when the browser did not send one. */
      newVisitor?: string;
      link: Pick<LinkRecord, 'app_id' | 'affiliate_id' | 'link_id'>;
      failure?: { step: 'affiliate' | 'claim' | 'stream'; error: string };
    };

type AffiliateStanding = Pick<AffiliateRecord, 'status'>;

/** Only an approved affiliate (or one from before statuses, which counts as approved) earns from a click. */
const attributable = (affiliate: AffiliateStanding | undefined) => affiliate !== undefined && (affiliate.status ?? 'approved') === 'approved';

export function trackClick(ports: TrackClickPorts) {
  const links = new LookupCache<LinkRecord>(ports.cache ?? lookupCacheDefaults);
  const affiliates = new LookupCache<AffiliateStanding>(ports.cache ?? lookupCacheDefaults);
  const standingOf = (appId: string, affiliateId: string) =>
    affiliates.get(`${appId}#${affiliateId}`, async () => {
      const affiliate = await ports.affiliates.get(appId, affiliateId);
      return affiliate && { status: affiliate.status };
    });

  return async (request: ClickRequest): Promise<ClickOutcome> => {
    // Not the shape of a link id: no need to ask the table.
    if (request.linkId === undefined || !LINK_ID_PATTERN.test(request.linkId)) return { outcome: 'unknown-link' };
    const link = await links.get(request.linkId, (id) => ports.links.get(id));
    if (!link) return { outcome: 'unknown-link' };

    const { visitor, fromCookie } = visitorOf({ cookie: request.visitorCookie, sourceIp: request.sourceIp, userAgent: request.userAgent });
    const base = {
      outcome: 'redirect' as const,
      link: { app_id: link.app_id, affiliate_id: link.affiliate_id, link_id: link.link_id },
      ...(fromCookie ? {} : { newVisitor: visitor }),
    };
    const plain = { ...base, location: new URL(link.landing_url).href };

    let standing: AffiliateStanding | undefined;
    try {
      standing = await standingOf(link.app_id, link.affiliate_id);
    } catch (error) {
      // Whether the affiliate may earn is unknown: the visitor lands without its parameters.
      return { ...plain, count: 'failed', failure: { step: 'affiliate', error: (error as Error).name } };
    }
    if (!attributable(standing)) return { ...plain, count: 'not-attributed' };

    const subId = subIdOf(request.subIds);
    const tracked = { ...base, location: trackedLandingUrl(link, subId) };
    const now = ports.now();
    const expiresAt = new Date(now.getTime() + CLICK_DEDUPE_SECONDS * 1000);
    const claimKey = clickClaimKey(link.link_id, visitor);
    try {
      if (!(await ports.claims.claim(claimKey, now, expiresAt))) return { ...tracked, count: 'repeat' };
    } catch (error) {
      return { ...tracked, count: 'failed', failure: { step: 'claim', error: (error as Error).name } };
    }

    const record = {
      app_id: link.app_id,
      profile_id: visitorProfileId(visitor),
      urm_insert_id: ports.newId(),
      urm_date_time: now.toISOString(),
      affiliate_id: link.affiliate_id,
      link_id: link.link_id,
      ...(subId === undefined ? {} : { sub_id: subId }),
    };
    try {
      const receipt = await ports.writer.write(toStreamEntries('click', [record], link.app_id, { newId: ports.newId, now: () => now }));
      if (receipt.FailedRecordCount === 0) return { ...tracked, count: 'counted' };
      // Refused for certain: the claim goes back, so the visitor's next click can count.
      await ports.claims.release(claimKey, expiresAt).catch(() => undefined);
      return { ...tracked, count: 'failed', failure: { step: 'stream', error: 'refused' } };
    } catch (error) {
      // Maybe written (a timeout after the fact): the claim stays, so the click is never counted twice.
      return { ...tracked, count: 'failed', failure: { step: 'stream', error: (error as Error).name } };
    }
  };
}
