/** One affiliate's report for a range of days, for the key's application; another application's affiliate is a 404 like an unknown one. */
import { affiliateReport, type ReportPorts } from '../../back-office/affiliate-report';
import type { AffiliateReport } from '../../domain/affiliate-program';
import { Forbidden, NotFound } from '../../domain/errors';
import { affiliatePathSchema, type ReportQuery } from './schema';

export function getAffiliateReport(office: ReportPorts) {
  const report = affiliateReport(office);
  return async (callerAppId: string, query: ReportQuery, affiliateId: string | undefined): Promise<AffiliateReport> => {
    if (query.app_id !== undefined && query.app_id !== callerAppId) throw new Forbidden();
    // Ids are opaque: one no affiliate can have is simply not found.
    if (!affiliateId || affiliateId.length > affiliatePathSchema.maxLength) throw new NotFound('Not Found');
    const result = await report(callerAppId, affiliateId, query.from, query.to);
    return { ...result, months: result.months ?? [] };
  };
}
