/**
 * Tracking links and clicks (docs/api.md, "Tracking links"): the link id, the
 * landing URL an affiliate may choose, what a click adds to it, who the
 * visitor is, and the claim that makes a visitor's repeated clicks count once
 * a day. Pure: the click operation (functions/api/track-click) and the link use
 * cases (back-office/affiliate-links.ts) build on it.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { LinkRecord } from './affiliate-program';

/** What a click adds to the landing URL: exactly what set_affiliate takes. */
export const clickParameters = { affiliateId: 'urm_aff_id', linkId: 'urm_aff_link_id', subId: 'urm_aff' } as const;

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const LINK_ID_LENGTH = 12;
/** The shape `newLinkId` produces; anything else is not looked up. */
export const LINK_ID_PATTERN = /^[A-Za-z0-9]{12}$/;

/** 12 base62 characters: about 71 bits, short in a URL, not guessable. */
export function newLinkId(random: (size: number) => Buffer = randomBytes): string {
  let id = '';
  while (id.length < LINK_ID_LENGTH) {
    for (const byte of random(16)) {
      // 248 = 4 × 62: bytes above it are dropped, so every character is equally likely.
      if (byte < 248 && id.length < LINK_ID_LENGTH) id += BASE62[byte % 62];
    }
  }
  return id;
}

export const linkLimits = { nameMaxLength: 100, landingUrlMaxLength: 2048 } as const;

/** A sub-id as the click address takes it: short, and nothing that needs escaping anywhere. */
export const SUB_ID_PATTERN = /^[A-Za-z0-9._-]{1,100}$/;

/** The click's `urm_aff` when it is one well-formed value; anything else (several, too long, other characters) is dropped. */
export function subIdOf(values: readonly string[] | undefined): string | undefined {
  return values?.length === 1 && SUB_ID_PATTERN.test(values[0]) ? values[0] : undefined;
}

/**
 * The landing URL with the click's parameters added after its own query (kept
 * as it is) and before its fragment. Only the stored URL and values of known
 * shape go in: nothing from the click's address but a checked sub-id.
 */
export function trackedLandingUrl(link: Pick<LinkRecord, 'landing_url' | 'affiliate_id' | 'link_id'>, subId?: string): string {
  const url = new URL(link.landing_url);
  const added = new URLSearchParams({ [clickParameters.affiliateId]: link.affiliate_id, [clickParameters.linkId]: link.link_id });
  if (subId !== undefined) added.set(clickParameters.subId, subId);
  url.search = url.search.length > 1 ? `${url.search.slice(1)}&${added}` : added.toString();
  return url.href;
}

/** The name of the visitor cookie, the days it lasts, and the shape of its value (a SHA-256, base64url). */
export const VISITOR_COOKIE = 'urm_v';
export const VISITOR_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
export const VISITOR_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Who clicks: the visitor cookie when the browser sent one, else a hash of
 * the address and the browser's User-Agent, which becomes the cookie. So a
 * browser that keeps cookies is one visitor across networks, and one that
 * does not (a script, a flood) is still one visitor per address and agent.
 */
export function visitorOf(request: { cookie?: string; sourceIp: string; userAgent: string }): { visitor: string; fromCookie: boolean } {
  if (request.cookie !== undefined && VISITOR_PATTERN.test(request.cookie)) return { visitor: request.cookie, fromCookie: true };
  const visitor = createHash('sha256').update(`urm-visitor\n${request.sourceIp}\n${request.userAgent}`).digest('base64url');
  return { visitor, fromCookie: false };
}

/** The click-claim key of a visitor on a link: neither is stored in clear. */
export function clickClaimKey(linkId: string, visitor: string): string {
  return createHash('sha256').update(`${linkId}\n${visitor}`).digest('hex');
}

/** The visitor's profile id on the stream: `urm-visitor-` and a hash, so records of one visitor share a shard. */
export function visitorProfileId(visitor: string): string {
  return `urm-visitor-${createHash('sha256').update(visitor).digest('hex').slice(0, 32)}`;
}

/** How long a counted click keeps the same visitor's later clicks on the link from counting. */
export const CLICK_DEDUPE_SECONDS = 24 * 60 * 60;

/** Port: the click claims. `claim` is true when this click counts (no live claim existed), false for a repeat. */
export interface ClickClaims {
  claim(key: string, now: Date, expiresAt: Date): Promise<boolean>;
  /** Gives up a claim this click took (its record never reached the stream), unless another click has taken it since. */
  release(key: string, expiresAt: Date): Promise<void>;
}
