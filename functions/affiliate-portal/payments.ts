/**
 * The payments page and the printable statement: the signed-in affiliate's
 * own statements (back-office/statements.ts, as the console computes them),
 * and their payout details. Nothing in the request names whose they are;
 * the details are never logged.
 */
import { h } from 'preact';
import { affiliateStatement, affiliateStatements, setPayoutDetails, type StatementReadPorts } from '../back-office/statements';
import type { PayoutStore } from '../domain/payouts';
import type { PlanStore } from '../domain/plans';
import { affiliateDealPlans } from '../back-office/deals';
import { dealLines } from './dashboard';
import { isMonth } from '../domain/statements';
import { portalCsrf } from '../domain/sessions';
import { logger } from '../runtime/logger';
import type { PortalWork, SignedInVisit } from './checks';
import { NotFoundPage } from './pages/access';
import { PaymentsPage, paymentsCssHash, type PaymentsView } from './pages/payments';
import { StatementPage, statementPrintCssHash } from './pages/statement';
import { page, portalSecurityHeaders, seeOther } from './render';
import { portalCssHash } from './pages/style';

/** The portal's CSP, allowing a page's own stylesheet beside the portal's. */
const withStyle = (hash: string) => ({
  'Content-Security-Policy': portalSecurityHeaders['Content-Security-Policy'].replace(`style-src ${portalCssHash}`, `style-src ${portalCssHash} ${hash}`),
});

export type PaymentsPorts = StatementReadPorts & { plans: Pick<PlanStore, 'getVersion'>; payouts: PayoutStore };

/** The deal in force today in words, as the dashboard says it (its plan version's terms). */
async function dealOf(ports: PaymentsPorts, visit: SignedInVisit, currency: string): Promise<string | undefined> {
  const today = (ports.now?.() ?? new Date()).toISOString().slice(0, 10);
  const { current } = dealLines(await affiliateDealPlans(ports, visit.affiliate), today, currency);
  return current;
}

export function paymentsWork(ports: PaymentsPorts): Pick<PortalWork, 'AffiliatePaymentsPage' | 'AffiliateUpdatePayout' | 'AffiliateStatementPage'> {
  const list = affiliateStatements(ports);
  const one = affiliateStatement(ports);

  const paymentsPage = async (visit: SignedInVisit, status: number, view: Pick<PaymentsView, 'csrf' | 'form' | 'done'>) => {
    const { appId, affiliate } = visit;
    const [statements, payout] = await Promise.all([list(appId, affiliate.affiliate_id), ports.payouts.get(appId, affiliate.affiliate_id)]);
    const deal = await dealOf(ports, visit, statements.currency);
    return page(
      status,
      h(PaymentsPage, {
        appName: visit.app.name,
        name: `${affiliate.first_name} ${affiliate.last_name}`,
        currency: statements.currency,
        balance: statements.balance,
        minPayout: statements.min_payout,
        deal,
        statements: statements.statements,
        payout,
        ...view,
      }),
      { headers: withStyle(paymentsCssHash) },
    );
  };

  return {
    AffiliatePaymentsPage: async (visit) =>
      paymentsPage(visit, 200, { csrf: portalCsrf.tokenFor(visit.sessionId), done: visit.event.queryStringParameters?.done === 'saved' ? 'saved' : undefined }),

    AffiliateUpdatePayout: async (visit) => {
      const { appId, affiliate, form } = visit;
      const result = await setPayoutDetails(ports, appId, affiliate.affiliate_id, form);
      if (!result.payout) {
        const { csrf: _csrf, ...fields } = form;
        return paymentsPage(visit, 400, { csrf: form.csrf, form: { fields, errors: result.problems } });
      }
      // Which method only: the details are personal data.
      logger.info('Affiliate payout details set', { app_id: appId, affiliate_id: affiliate.affiliate_id, method: result.payout.payout_method });
      return seeOther('payments?done=saved');
    },

    AffiliateStatementPage: async (visit) => {
      const month = visit.event.queryStringParameters?.month ?? '';
      const notFound = () => page(404, h(NotFoundPage, { missing: 'page' }));
      if (!isMonth(month)) return notFound();
      const { appId, affiliate } = visit;
      const statement = await one(appId, affiliate.affiliate_id, month).catch((error: Error) =>
        error.name === 'NotFound' ? undefined : Promise.reject(error),
      );
      if (!statement) return notFound();
      const payout = await ports.payouts.get(appId, affiliate.affiliate_id);
      return page(
        200,
        h(StatementPage, {
          appName: visit.app.name,
          name: `${affiliate.first_name} ${affiliate.last_name}`,
          csrf: portalCsrf.tokenFor(visit.sessionId),
          statement,
          payout,
        }),
        { headers: withStyle(statementPrintCssHash) },
      );
    },
  };
}
