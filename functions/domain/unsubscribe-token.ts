/**
 * The unsubscribe token (docs/api.md, "Unsubscribe"): what the address in a
 * marketing email's `List-Unsubscribe` carries. It names the application,
 * the player, the topic (none: all marketing email) and the campaign that
 * sent the mail (so its results count the unsubscribe), signed with the
 * application's unsubscribe key: `base64url(JSON {v,a,p,t,c}).base64url(HMAC-SHA256)`.
 *
 * No expiry: a link must keep working months later, after the player's next
 * mail (RFC 8058 and the mailbox providers expect it). The key is therefore
 * never rotated by the operator: a new key would silently break every link
 * already in every inbox, and the token grants nothing but leaving (or, on
 * the page, rejoining) the mail of one player of one application.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { limits } from './limits';

export interface UnsubscribeClaims {
  appId: string;
  profileId: string;
  /** The topic the link leaves; absent: all marketing email. */
  topic?: string;
  /** The campaign whose mail carried the link (`journey:<id>` or `broadcast:<id>`, its step and version). */
  campaign?: UnsubscribeCampaign;
}

export interface UnsubscribeCampaign {
  campaign: string;
  step?: string;
  version?: string;
}

/** A campaign's fields are ids (64 characters at most each, `kind:id` twice that): bounded on the way back too. */
const CAMPAIGN_PART_LENGTH = 140;

/** Room for the longest application id, profile id and topic, base64url-encoded, and the MAC. */
export const maxUnsubscribeTokenLength = 1024;

const TOKEN = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/;
const VERSION = 1;

export function unsubscribeKeyName(appId: string): string {
  return `apps/${appId}/unsubscribe-key`;
}

/** Every application's unsubscribe key: what the portal may read and create (routes.ts). */
export const unsubscribeKeyPattern = unsubscribeKeyName('*');

/** A new key: 256 random bits, prefixed so that secret scanners know it. */
export function newUnsubscribeKey(): string {
  return `urm_unsubscribe_${randomBytes(32).toString('base64url')}`;
}

function mac(key: string, payload: string): Buffer {
  return createHmac('sha256', key).update(payload, 'utf8').digest();
}

export function signUnsubscribeToken(key: string, claims: UnsubscribeClaims): string {
  const body: Record<string, unknown> = { v: VERSION, a: claims.appId, p: claims.profileId };
  if (claims.topic !== undefined) body.t = claims.topic;
  if (claims.campaign !== undefined) body.c = claims.campaign;
  const payload = Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

function decodedPayload(payload: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const text = (value: unknown, max: number): value is string => typeof value === 'string' && value.length > 0 && value.length <= max;

/**
 * The application a token claims, unverified: only to find the key it must
 * be verified with. Undefined for anything that is not a token's shape.
 */
export function claimedApp(token: string): string | undefined {
  if (token.length > maxUnsubscribeTokenLength) return undefined;
  const parts = TOKEN.exec(token);
  const app = parts ? decodedPayload(parts[1])?.a : undefined;
  return text(app, limits.appIdLength) ? app : undefined;
}

/** The claims of a token this key signed, compared in constant time; undefined for any other string. */
export function verifyUnsubscribeToken(key: string, token: string): UnsubscribeClaims | undefined {
  if (token.length > maxUnsubscribeTokenLength) return undefined;
  const parts = TOKEN.exec(token);
  if (!parts) return undefined;
  // Compared as text, not as decoded bytes: the last base64url character carries two unused bits, so four spellings
  // decode to the same MAC. Only the one the service wrote is accepted (a token has one spelling).
  const given = Buffer.from(parts[2], 'ascii');
  const expected = Buffer.from(mac(key, parts[1]).toString('base64url'), 'ascii');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const body = decodedPayload(parts[1]);
  if (!body || body.v !== VERSION || !text(body.a, limits.appIdLength) || !text(body.p, limits.profileIdLength)) return undefined;
  if (body.t !== undefined && !text(body.t, limits.topicLength)) return undefined;
  const campaign = body.c === undefined ? undefined : campaignOf(body.c);
  if (body.c !== undefined && campaign === undefined) return undefined;
  return {
    appId: body.a,
    profileId: body.p,
    ...(body.t !== undefined ? { topic: body.t as string } : {}),
    ...(campaign !== undefined ? { campaign } : {}),
  };
}

function campaignOf(value: unknown): UnsubscribeCampaign | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { campaign, step, version, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || !text(campaign, CAMPAIGN_PART_LENGTH)) return undefined;
  if (step !== undefined && !text(step, CAMPAIGN_PART_LENGTH)) return undefined;
  if (version !== undefined && !text(version, CAMPAIGN_PART_LENGTH)) return undefined;
  return { campaign, ...(step !== undefined ? { step: step as string } : {}), ...(version !== undefined ? { version: version as string } : {}) };
}

/**
 * The preference page's form token: a MAC of the unsubscribe token under the
 * same key, for another purpose, so it is only known to whoever was served the page.
 */
export function preferencesFormToken(key: string, token: string): string {
  return mac(key, `preferences:${token}`).toString('base64url');
}

export function preferencesFormTokenMatches(key: string, token: string, given: unknown): boolean {
  if (typeof given !== 'string' || given.length > 64) return false;
  const expected = Buffer.from(preferencesFormToken(key, token), 'utf8');
  const actual = Buffer.from(given, 'utf8');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
