/**
 * Affiliates as the operator manages them: a paged listing (also
 * GET /api/affiliates), approving and suspending, assigning a plan.
 */
import type { AffiliateStatus } from '../domain/affiliate-program';
import { statusOf, type AffiliateSummary } from '../domain/affiliates';
import { NotFound, ValidationError } from '../domain/errors';
import { requireApp } from './apps';
import { requirePlan } from './plans';
import type { BackOffice } from './ports';

/** An affiliate in a listing: who, its status and plan; never contacts beyond the email, never the password hash. */
export interface AffiliateListItem {
  affiliate_id: string;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  status: AffiliateStatus;
  plan_id: string | null;
  created_at: string;
}

export interface AffiliatePage {
  affiliates: AffiliateListItem[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

export const affiliatePageLimits = { default: 50, max: 100 } as const;

export function listItemOf(affiliate: AffiliateSummary): AffiliateListItem {
  return {
    affiliate_id: affiliate.affiliate_id,
    username: affiliate.username,
    email: affiliate.email,
    first_name: affiliate.first_name,
    last_name: affiliate.last_name,
    status: statusOf(affiliate),
    plan_id: affiliate.plan_id ?? null,
    created_at: affiliate.created_at,
  };
}

/** The opaque cursor of a listing page: the application and the last affiliate shown. */
export function encodeAffiliateCursor(appId: string, affiliateId: string): string {
  return Buffer.from(JSON.stringify([appId, affiliateId])).toString('base64url');
}

/** Where the page after `cursor` starts; the cursor must come from a listing of this very application. */
export function decodeAffiliateCursor(cursor: string, appId: string): string {
  const invalid = () => new ValidationError(['cursor is not one this listing gave'], 'request is invalid');
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(values) || values.length !== 2 || values[0] !== appId || typeof values[1] !== 'string' || values[1] === '') throw invalid();
  return values[1];
}

/** A page of the application's affiliates, by affiliate id. */
export async function listAffiliatePage(
  office: Pick<BackOffice, 'affiliates'>,
  appId: string,
  options: { limit?: number; cursor?: string } = {},
): Promise<AffiliatePage> {
  const start = options.cursor === undefined ? undefined : decodeAffiliateCursor(options.cursor, appId);
  const page = await office.affiliates.page(appId, options.limit ?? affiliatePageLimits.default, start);
  return {
    affiliates: page.affiliates.map(listItemOf),
    next_cursor: page.next === undefined ? null : encodeAffiliateCursor(appId, page.next),
  };
}

async function change(
  office: Pick<BackOffice, 'apps' | 'affiliates'>,
  appId: string,
  affiliateId: string,
  changes: { status?: AffiliateStatus; plan_id?: string },
): Promise<AffiliateListItem> {
  await requireApp(office, appId);
  const updated = await office.affiliates.update(appId, affiliateId, changes);
  if (!updated) throw new NotFound(`no affiliate ${affiliateId} in application ${appId}`);
  return listItemOf(updated);
}

/** Approves (a pending or suspended affiliate may then sign in and earn) or suspends an affiliate. */
export async function setAffiliateStatus(
  office: Pick<BackOffice, 'apps' | 'affiliates'>,
  appId: string,
  affiliateId: string,
  status: AffiliateStatus,
): Promise<AffiliateListItem> {
  return change(office, appId, affiliateId, { status });
}

/** Puts an affiliate on one of the application's plans; its reports are computed with it from then on, for any period. */
export async function assignPlan(
  office: Pick<BackOffice, 'apps' | 'affiliates' | 'plans'>,
  appId: string,
  affiliateId: string,
  planId: string,
): Promise<AffiliateListItem> {
  await requirePlan(office, appId, planId);
  return change(office, appId, affiliateId, { plan_id: planId });
}
