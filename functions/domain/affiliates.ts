/**
 * Affiliates of an application: what is stored, what may be shown, and the
 * port that registers one with its email and username unique in the
 * application (docs/api.md, "register_affiliate").
 */
import { randomBytes } from 'node:crypto';
import type { AffiliateStatus, Plan, ProgrammeSettings } from './affiliate-program';
import { versionOf, type Deal } from './deals';
import { NotFound } from './errors';

/** Optional contact fields; stored only when given (null and "" mean not given). */
export const affiliateContactFields = ['website_url', 'phone_number', 'telegram', 'youtube', 'facebook', 'whatsapp', 'skype'] as const;
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
  /** The plan of the latest assignment (deals are the whole story: ./deals.ts `dealsOf`). */
  plan_id?: string;
  /** Plan assignments with their effective days, appended (./deals.ts); absent before deals existed. */
  deals?: Deal[];
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
  /** One affiliate of the application (undefined for an unknown one, or one of another application). */
  get(appId: string, affiliateId: string): Promise<AffiliateSummary | undefined>;
  /**
   * A page of the application's affiliates by affiliate id, only those of `status` when given; `next` is
   * where the following page starts. A filtered page reads a bounded number of affiliates, so it may hold
   * fewer than `limit` and still have a `next`.
   */
  page(appId: string, limit: number, start?: string, status?: AffiliateStatus): Promise<{ affiliates: AffiliateSummary[]; next?: string }>;
  /** Changes an existing affiliate's status or plan; undefined when there is no such affiliate. */
  update(appId: string, affiliateId: string, changes: Partial<Pick<AffiliateRecord, 'status' | 'plan_id'>>): Promise<AffiliateSummary | undefined>;
  /**
   * Appends `deals` to the affiliate's and sets `plan_id` to the last one's plan. With `first`, only while the
   * affiliate has no deals stored yet; without, only while it has some and fewer than `maxDeals`. A failed
   * condition (an assignment raced this one, or no such affiliate) is a Conflict: read again.
   */
  appendDeals(appId: string, affiliateId: string, deals: Deal[], first: boolean): Promise<AffiliateSummary>;
}

/** An affiliate's status: registered before statuses existed (none stored) means approved. */
export function statusOf(affiliate: Pick<AffiliateRecord, 'status'>): AffiliateStatus {
  return affiliate.status ?? 'approved';
}

/**
 * What a new affiliate of the application starts with: its approval setting (pending unless `approve`) and a deal
 * on the default plan's current version (`defaultPlan`, read by the caller) from the day it is created.
 */
export function initialStanding(
  app: ProgrammeSettings | undefined,
  defaultPlan: Pick<Plan, 'plan_id' | 'version'> | undefined,
  createdAt: string,
): Pick<AffiliateRecord, 'status' | 'plan_id' | 'deals'> {
  const plan = app?.default_plan_id !== undefined && defaultPlan?.plan_id === app.default_plan_id ? defaultPlan : undefined;
  return {
    status: app?.affiliate_approval === 'approve' ? 'approved' : 'pending',
    ...(plan
      ? { plan_id: plan.plan_id, deals: [{ plan_id: plan.plan_id, plan_version: versionOf(plan), from: createdAt.slice(0, 10), assigned_at: createdAt }] }
      : {}),
  };
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

/** The longest affiliate id a path may carry; ours are far shorter (`aff_` + 20 hex digits). */
export const affiliateIdMaxLength = 128;

/** The affiliate id of a console path. Ids are opaque: one no affiliate can have is simply not found, like an unknown one. */
export function affiliateIdOf(pathParameters: Record<string, string | undefined> | null): string {
  const affiliateId = pathParameters?.affiliate_id ?? '';
  if (affiliateId.length === 0 || affiliateId.length > affiliateIdMaxLength) throw new NotFound('Not Found');
  return affiliateId;
}
