/** What an operator reads back: the records the consumers rejected, and the affiliates who registered. */
import type { AffiliateSummary } from '../domain/affiliates';
import { ValidationError } from '../domain/errors';
import { readableRejection } from '../domain/rejections';
import type { Rejection } from '../domain/timeline';
import { requireApp } from './apps';
import { decodeCursor, encodeCursor } from './cursors';
import type { BackOffice } from './ports';

/** Records the consumers rejected when applying them, newest first, with the reason; never a push token or proof. */
export async function listRejections(office: BackOffice, appId: string, limit: number): Promise<Rejection[]> {
  await requireApp(office, appId);
  return (await office.rejections.list(appId, limit)).map(readableRejection);
}

export const rejectionPageLimits = { default: 50, max: 200 } as const;

export interface RejectionList {
  rejections: Rejection[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

/**
 * A page of the records the consumers rejected (kept 14 days), newest first, with the reason: the console's listing
 * of the CLI's `rejections`, which every role reads: never a push token or proof.
 */
export async function listRejectionPage(
  office: Pick<BackOffice, 'rejections'>,
  appId: string,
  options: { limit?: number; cursor?: string } = {},
): Promise<RejectionList> {
  const limit = options.limit ?? rejectionPageLimits.default;
  if (!Number.isInteger(limit) || limit < 1 || limit > rejectionPageLimits.max) {
    throw new ValidationError([`limit must be an integer from 1 to ${rejectionPageLimits.max}`], 'request is invalid');
  }
  const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, [appId], 'listing');
  const page = await office.rejections.page(appId, limit, after);
  return { rejections: page.rejections.map(readableRejection), next_cursor: page.next === undefined ? null : encodeCursor([appId], page.next) };
}

/** An application's registered affiliates, oldest first; never a password or its hash. */
export async function listAffiliates(office: BackOffice, appId: string): Promise<AffiliateSummary[]> {
  await requireApp(office, appId);
  return office.affiliates.list(appId);
}
