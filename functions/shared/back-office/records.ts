/** What an operator reads back: the records the consumers rejected, and the affiliates who registered. */
import type { AffiliateSummary } from '../domain/affiliates';
import type { Rejection } from '../domain/timeline';
import { requireApp } from './apps';
import type { BackOffice } from './ports';

/** Records the consumers rejected when applying them, newest first, with the reason. */
export async function listRejections(office: BackOffice, appId: string, limit: number): Promise<Rejection[]> {
  await requireApp(office, appId);
  return office.rejections.list(appId, limit);
}

/** An application's registered affiliates, oldest first; never a password or its hash. */
export async function listAffiliates(office: BackOffice, appId: string): Promise<AffiliateSummary[]> {
  await requireApp(office, appId);
  return office.affiliates.list(appId);
}
