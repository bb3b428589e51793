/**
 * Affiliates of an application: what is stored, what may be shown, and the
 * port that registers one with its email and username unique in the
 * application (docs/api.md, "register_affiliate").
 */
import { randomBytes } from 'node:crypto';
import type { AffiliateStatus } from './affiliate-program';

/** Optional contact fields; stored only when given (null and "" mean not given). */
export const affiliateContactFields = ['website_url', 'phone_number', 'telegram', 'youtube', 'facebook', 'whatsapp'] as const;
export type AffiliateContactField = (typeof affiliateContactFields)[number];

/** An affiliate as stored. `password_hash` never leaves the store's write path. */
export interface AffiliateRecord extends Partial<Record<AffiliateContactField, string>> {
  app_id: string;
  affiliate_id: string;
  /** As given, trimmed: what the affiliate sees. */
  email: string;
  username: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  created_at: string;
  /** Absent on affiliates registered before statuses existed: they count as approved. */
  status?: AffiliateStatus;
  plan_id?: string;
}

/** What the back office may show of an affiliate: everything but the password hash. */
export type AffiliateSummary = Omit<AffiliateRecord, 'password_hash'>;

/** The fields that must be unique within an application. */
export type UniqueAffiliateField = 'email' | 'username';

export type RegistrationOutcome = { registered: true } | { registered: false; taken: UniqueAffiliateField[] };

export interface AffiliateStore {
  /**
   * Stores the affiliate unless its email or username (compared by
   * `uniquenessKey`) is already used in its application; atomic, so of
   * concurrent registrations of one email exactly one succeeds.
   */
  register(affiliate: AffiliateRecord): Promise<RegistrationOutcome>;
  /** The application's affiliates, oldest first. */
  list(appId: string): Promise<AffiliateSummary[]>;
  /** One affiliate of the application, if there is one. */
  get(appId: string, affiliateId: string): Promise<AffiliateRecord | undefined>;
}

/** How an email or username is compared: trimmed, in one Unicode form, case-insensitively. */
export function uniquenessKey(value: string): string {
  return value.trim().normalize('NFC').toLowerCase();
}

export function newAffiliateId(): string {
  return `aff_${randomBytes(10).toString('hex')}`;
}

export function toSummary({ password_hash: _hash, ...summary }: AffiliateRecord): AffiliateSummary {
  return summary;
}
