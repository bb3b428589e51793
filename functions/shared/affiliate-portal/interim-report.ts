/**
 * Until the programme's report use case (functions/shared/back-office/affiliate-report.ts)
 * is wired in: a report of the period with every figure zero.
 */
import { daysOf, type AffiliateReportSource } from '../domain/affiliate-portal';
import { defaultCurrency, type FunnelFigures } from '../domain/affiliate-program';

const zero: FunnelFigures = {
  clicks: 0,
  registrations: 0,
  ftds: 0,
  qualified_ftds: 0,
  deposits: '0.00',
  withdrawals: '0.00',
  ngr: '0.00',
  cpa: '0.00',
  revshare: '0.00',
  commission: '0.00',
};

export const interimReport: AffiliateReportSource = async (_appId, affiliateId, from, to) => ({
  affiliate_id: affiliateId,
  currency: defaultCurrency,
  from,
  to,
  days: daysOf({ from, to }).map((date) => ({ ...zero, date })),
  links: [],
  totals: { ...zero },
});
