/** The key's application's affiliates, a page at a time behind an opaque cursor. */
import { listAffiliatePage, type AffiliatePage } from '../../back-office/affiliates';
import type { BackOffice } from '../../back-office/ports';
import { Forbidden } from '../../domain/errors';
import type { AffiliatesQuery } from './schema';

export function listAffiliates(office: Pick<BackOffice, 'affiliates'>) {
  return async (callerAppId: string, query: AffiliatesQuery): Promise<AffiliatePage> => {
    if (query.app_id !== undefined && query.app_id !== callerAppId) throw new Forbidden();
    return listAffiliatePage(office, callerAppId, {
      limit: query.limit === undefined ? undefined : Number(query.limit),
      cursor: query.cursor,
    });
  };
}
