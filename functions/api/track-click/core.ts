/**
 * GET /t/{link_id}: a click on a tracking link. The visitor always lands on
 * the link's stored landing URL; with the affiliate's parameters when the
 * affiliate is approved. The click counts when it is the visitor's first on
 * the link in 24 hours (a conditional put of the claim) and one of the first
 * few new visitors from its address on the link that day (a conditional
 * update of the address's count); then one record goes on the stream. The
 * visitor is the signed cookie's, or the address and agent's. Nothing is
 * written for an unknown link, and a failing write never stops the redirect:
 * the click goes uncounted, and the outcome says why.
 */
import type { LinkRecord, LinkStore } from '../../domain/affiliate-program';
import type { AffiliateRecord, AffiliateStore } from '../../domain/affiliates';
import { toStreamEntries, type RecordWriter } from '../../domain/ingest';
import {
  CLICK_DEDUPE_SECONDS,
  CLICKS_PER_ADDRESS_PER_DAY,
  clickAddressKey,
  clickClaimKey,
  LINK_ID_PATTERN,
  newVisitorCookieKey,
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
  /** A visitor-cookie key to store if the stack has none yet; by default 256 random bits. */
  newCookieKey?: () => string;
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
 * - `address-limit`: the click's address has its day's count of new visitors on this link.
 * - `not-attributed`: the affiliate is suspended, pending or gone: a plain redirect.
 * - `failed`: a read or write failed (`failure` says which); the visitor is redirected all the same.
 */
export type ClickCount = 'counted' | 'repeat' | 'address-limit' | 'not-attributed' | 'failed';

export type ClickOutcome =
  | { outcome: 'unknown-link' }
  | {
      outcome: 'redirect';
      location: string;
      count: ClickCount;
      /** The visitor cookie's value to set, when the browser sent none the click address signed. */
      visitorCookie?: string;
      link: Pick<LinkRecord, 'app_id' | 'affiliate_id' | 'link_id'>;
      failure?: { step: 'cookie-key' | 'affiliate' | 'claim' | 'address' | 'stream'; error: string };
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
  // Read (or, on a new stack, made) once per container; asked again only after a failure.
  let cookieKey: Promise<string> | undefined;
  const visitorCookieKey = () =>
    (cookieKey ??= ports.claims.visitorCookieKey((ports.newCookieKey ?? newVisitorCookieKey)()).catch((error: unknown) => {
      cookieKey = undefined;
      throw error;
    }));

  return async (request: ClickRequest): Promise<ClickOutcome> => {
    // Not the shape of a link id: no need to ask the table.
    if (request.linkId === undefined || !LINK_ID_PATTERN.test(request.linkId)) return { outcome: 'unknown-link' };
    const link = await links.get(request.linkId, (id) => ports.links.get(id));
    if (!link) return { outcome: 'unknown-link' };

    const linkIds = { app_id: link.app_id, affiliate_id: link.affiliate_id, link_id: link.link_id };
    let key: string;
    try {
      key = await visitorCookieKey();
    } catch (error) {
      // Without the key no cookie can be told from a forged one: the visitor lands, uncounted and without a new cookie.
      const failure = { step: 'cookie-key' as const, error: (error as Error).name };
      const standing = await standingOf(link.app_id, link.affiliate_id).catch(() => undefined);
      const location = attributable(standing) ? trackedLandingUrl(link, subIdOf(request.subIds)) : new URL(link.landing_url).href;
      return { outcome: 'redirect', link: linkIds, location, count: 'failed', failure };
    }
    const { visitor, cookie } = visitorOf({ cookie: request.visitorCookie, sourceIp: request.sourceIp, userAgent: request.userAgent }, key);
    const base = { outcome: 'redirect' as const, link: linkIds, ...(cookie ? { visitorCookie: cookie } : {}) };
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
    // A new visitor for the link: one of the address's few of the day? Past them the visitor's claim stays, so its
    // repeats cost the one refused put.
    const day = now.toISOString().slice(0, 10);
    const addressKey = clickAddressKey(link.link_id, request.sourceIp, day);
    try {
      const dayAfter = new Date(`${day}T00:00:00.000Z`).getTime() + 2 * 24 * 60 * 60 * 1000;
      if (!(await ports.claims.countWithin(addressKey, CLICKS_PER_ADDRESS_PER_DAY, new Date(dayAfter)))) return { ...tracked, count: 'address-limit' };
    } catch (error) {
      await ports.claims.release(claimKey, expiresAt).catch(() => undefined);
      return { ...tracked, count: 'failed', failure: { step: 'address', error: (error as Error).name } };
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
      // Refused for certain: the claim and the address's count go back, so the visitor's next click can count.
      await ports.claims.release(claimKey, expiresAt).catch(() => undefined);
      await ports.claims.uncount(addressKey).catch(() => undefined);
      return { ...tracked, count: 'failed', failure: { step: 'stream', error: 'refused' } };
    } catch (error) {
      // Maybe written (a timeout after the fact): the claim stays, so the click is never counted twice.
      return { ...tracked, count: 'failed', failure: { step: 'stream', error: (error as Error).name } };
    }
  };
}
