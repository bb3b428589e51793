/**
 * Identity verification (docs/api.md, "The browser key"): the browser key is
 * public, so a page proves which profile it speaks for with
 * hex HMAC-SHA256(the application's identity secret, profile_id), computed by
 * the integrator's server. The secret lives in the SecretStore, like the VAPID
 * private keys.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ANONYMOUS_PROFILE_PREFIX } from './push';

/** The record field that carries the proof; it never reaches the stream. */
export const PROOF_FIELD = 'urm_profile_id_hash';

export const proofSchema = {
  type: 'string',
  pattern: '^[0-9a-fA-F]{64}$',
  description: "Hex HMAC-SHA256 of profile_id with the application's identity secret: what a browser key needs to write a known profile.",
} as const;

export function identitySecretName(appId: string): string {
  return `apps/${appId}/identity-secret`;
}

/** Every application's identity secret name: what a function that rotates them may write (operations.ts, secretWrites). */
export const identitySecretPattern = identitySecretName('*');

/** A new identity secret: 256 random bits, prefixed so that secret scanners know it. */
export function newIdentitySecret(): string {
  return `urm_identity_${randomBytes(32).toString('base64url')}`;
}

/** The proof of `profileId`, as the integrator's server computes it. */
export function profileIdProof(secret: string, profileId: string): string {
  return createHmac('sha256', secret).update(profileId, 'utf8').digest('hex');
}

/** Whether `proof` is the proof of exactly `profileId`, compared in constant time. */
export function proofMatches(secret: string, profileId: string, proof: unknown): boolean {
  if (typeof proof !== 'string') return false;
  const expected = Buffer.from(profileIdProof(secret, profileId), 'utf8');
  const given = Buffer.from(proof.toLowerCase(), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Anonymous visitors' ids are random and known to their browser only: they need no proof. */
export function needsProof(profileId: string): boolean {
  return !profileId.startsWith(ANONYMOUS_PROFILE_PREFIX);
}

/** What an application asks of browser-key writes to known profiles. */
export type IdentityVerification = { required: false } | { required: true; secret: string | undefined };

/** Port: an application's identity verification (cached by the adapter). */
export interface IdentityKeyring {
  forApp(appId: string): Promise<IdentityVerification>;
}
