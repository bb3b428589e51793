/**
 * Tracking links and clicks (docs/api.md, "Tracking links"): the link id, the
 * landing URL an affiliate may choose, what a click adds to it, who the
 * visitor is (the signed cookie's, or the address and agent's), the claim that
 * makes a visitor's repeated clicks count once a day, and the bound on new
 * visitors counted per address. Pure: the click operation
 * (functions/api/track-click) and the link use cases
 * (back-office/affiliate-links.ts) build on it.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
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

/** The name of the visitor cookie and the days it lasts. */
export const VISITOR_COOKIE = 'urm_v';
export const VISITOR_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
/** A visitor: a SHA-256, base64url. */
export const VISITOR_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** The cookie's value: the visitor, a dot, and its signature (128 bits of an HMAC-SHA256, base64url). */
export const VISITOR_COOKIE_PATTERN = /^([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{22})$/;
const SIGNATURE_CHARS = 22;

/** The visitor a client without a (valid) cookie is: a hash of its address and User-Agent. */
export function addressVisitor(sourceIp: string, userAgent: string): string {
  return createHash('sha256').update(`urm-visitor\n${sourceIp}\n${userAgent}`).digest('base64url');
}

const signatureOf = (visitor: string, key: string) =>
  createHmac('sha256', key).update(`urm-visitor-cookie\n${visitor}`).digest('base64url').slice(0, SIGNATURE_CHARS);

/** The cookie that keeps `visitor`, signed with the stack's visitor-cookie key. */
export function signedVisitorCookie(visitor: string, key: string): string {
  return `${visitor}.${signatureOf(visitor, key)}`;
}

/**
 * Who clicks: the visitor the cookie names when the click address signed it
 * with `key`, else a hash of the address and the browser's User-Agent, which
 * becomes the cookie (`cookie`: the value to set). So a browser that keeps
 * cookies is one visitor across networks, one that does not (a script, a
 * flood) is still one visitor per address and agent, and a cookie the client
 * made up is no visitor at all.
 */
export function visitorOf(request: { cookie?: string; sourceIp: string; userAgent: string }, key: string): { visitor: string; cookie?: string } {
  const parts = request.cookie === undefined ? null : VISITOR_COOKIE_PATTERN.exec(request.cookie);
  if (parts) {
    const expected = Buffer.from(signatureOf(parts[1], key));
    if (timingSafeEqual(Buffer.from(parts[2]), expected)) return { visitor: parts[1] };
  }
  const visitor = addressVisitor(request.sourceIp, request.userAgent);
  return { visitor, cookie: signedVisitorCookie(visitor, key) };
}

/** A new visitor-cookie key: 256 random bits. */
export function newVisitorCookieKey(random: (size: number) => Buffer = randomBytes): string {
  return random(32).toString('base64url');
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

/**
 * How many new visitors' clicks on one link count per client address (an IPv4
 * address, an IPv6 /64) and UTC day: past it a click still redirects, with
 * the affiliate's parameters, but is not counted.
 */
export const CLICKS_PER_ADDRESS_PER_DAY = 3;

/** The 16-bit groups of an IPv6 address (node:net said it is one). */
function ipv6Groups(ip: string): number[] {
  let text = ip.toLowerCase().split('%')[0];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const written = tail === undefined ? groups(head) : [...groups(head), ...Array(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)];
  return written.map((group) => Number.parseInt(group, 16));
}

/**
 * The client's address as the bound counts it: an IPv4 address (also when
 * written as an IPv4-mapped IPv6 one), or an IPv6 address's /64, since one
 * subscriber commonly holds a whole /64 and could take a new address per click.
 */
export function clientAddressBlock(sourceIp: string): string {
  if (isIPv4(sourceIp) || !isIPv6(sourceIp)) return sourceIp;
  const groups = ipv6Groups(sourceIp);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The key of an address's counted clicks on a link on a UTC day: the address is not stored in clear. */
export function clickAddressKey(linkId: string, sourceIp: string, day: string): string {
  return createHash('sha256')
    .update(`urm-click-address\n${linkId}\n${clientAddressBlock(sourceIp)}\n${day}`)
    .digest('hex');
}

/**
 * Port: the click claims, in one table. `claim` is true when this click
 * counts (no live claim existed), false for a repeat.
 */
export interface ClickClaims {
  claim(key: string, now: Date, expiresAt: Date): Promise<boolean>;
  /** Gives up a claim this click took (its record never reached the stream), unless another click has taken it since. */
  release(key: string, expiresAt: Date): Promise<void>;
  /** Counts one click under `key` unless `limit` are counted there already: true when it counted. */
  countWithin(key: string, limit: number, expiresAt: Date): Promise<boolean>;
  /** Takes back one count this click made (its record never reached the stream). */
  uncount(key: string): Promise<void>;
  /**
   * The stack's visitor-cookie key: the one stored, or `candidate`, stored now
   * when there is none (the first click of a new stack), so every container
   * signs with the same key.
   */
  visitorCookieKey(candidate: string): Promise<string>;
}
