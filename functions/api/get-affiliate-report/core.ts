/** One affiliate's report for a range of days, for the key's application; another application's affiliate is a 404 like an unknown one. */
import { affiliateReport, type ReportPorts } from '../../back-office/affiliate-report';
import type { AffiliateReport } from '../../domain/affiliate-program';
import { Forbidden, NotFound } from '../../domain/errors';
import { affiliatePathSchema, type ReportQuery } from './schema';

/** The report with the rows `group_by` chose. */
export type ReportAnswer = Omit<AffiliateReport, 'days' | 'links'> & Partial<Pick<AffiliateReport, 'days' | 'links'>>;

export function getAffiliateReport(office: ReportPorts) {
  const report = affiliateReport(office);
  return async (callerAppId: string, query: ReportQuery, affiliateId: string | undefined): Promise<ReportAnswer> => {
    if (query.app_id !== undefined && query.app_id !== callerAppId) throw new Forbidden();
    // Ids are opaque: one no affiliate can have is simply not found.
    if (!affiliateId || affiliateId.length > affiliatePathSchema.maxLength) throw new NotFound('Not Found');
    const groupBy = query.group_by ?? 'day';
    const { days, links, sub_ids: subIds, ...result } = await report(callerAppId, affiliateId, query.from, query.to, { subIds: groupBy === 'sub_id' });
    // The default keeps the answer it always had: days and links.
    const rows = groupBy === 'day' ? { days, links } : groupBy === 'link' ? { links } : { sub_ids: subIds ?? [] };
    return { ...result, ...rows, months: result.months ?? [] };
  };
}
