/**
 * The random secrets a browser or a link carries (session ids, the portal's
 * pre-session ids, sign-in and reset tokens): made here, stored and looked up
 * only as their hash.
 */
import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What a secret is stored and looked up as. Being random, it needs no slow hash. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** The shape `newSecret` produces; anything else cannot be a token or session id, so no store is asked. */
export const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;
