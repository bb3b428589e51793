/** The statements routes (statements/routes.ts) over the back office's statement use cases. */
import { affiliateReport } from '../../back-office/affiliate-report';
import type { BackOffice } from '../../back-office/ports';
import {
  addAdjustment,
  affiliateStatements,
  approveStatement,
  markStatementPaid,
  minPayoutOf,
  setMinPayout,
  statementsCsv,
  type StatementPorts,
} from '../../back-office/statements';
import { affiliateIdOf } from '../../domain/affiliates';
import { NotFound } from '../../domain/errors';
import { describePayout } from '../../domain/payouts';
import { isMonth } from '../../domain/statements';
import { consoleActor } from '../../http/console-auth';
import { answer, type Implementations } from '../route';
import type { routes } from './routes';

export type StatementsPorts = Pick<BackOffice, 'apps' | 'affiliates' | 'plans' | 'links' | 'funnel' | 'audit' | 'now' | 'statements' | 'payouts'>;

/** A month in a path: anything else is no statement. */
function monthOf(path: Record<string, string | undefined>): string {
  const month = path.month ?? '';
  if (!isMonth(month)) throw new NotFound('Not Found');
  return month;
}

export function statementsHandlers(office: StatementsPorts) {
  const ports: StatementPorts = { ...office, report: affiliateReport(office) };
  const list = affiliateStatements(ports);
  const approve = approveStatement(ports);
  const adjust = addAdjustment(ports);
  const pay = markStatementPaid(ports);
  const csv = statementsCsv(ports);
  return {
    ConsoleAffiliateStatements: async ({ identity, path, query }) => {
      const affiliateId = affiliateIdOf(path);
      const statements = await list(identity.appId, affiliateId, query.until);
      const payout = await office.payouts.get(identity.appId, affiliateId);
      return answer(200, { ...statements, payout: payout ? { ...payout, summary: describePayout(payout) } : null });
    },

    ConsoleApproveStatement: async ({ identity, path }) =>
      answer(200, { statement: await approve(identity.appId, consoleActor(identity), affiliateIdOf(path), monthOf(path)) }),

    ConsoleAddAdjustment: async ({ identity, path, body }) =>
      answer(201, { adjustment: await adjust(identity.appId, consoleActor(identity), affiliateIdOf(path), monthOf(path), body) }),

    ConsoleMarkStatementPaid: async ({ identity, path, body }) =>
      answer(200, { statement: await pay(identity.appId, consoleActor(identity), affiliateIdOf(path), monthOf(path), body) }),

    ConsoleStatementsCsv: async ({ identity, query }) => {
      const file = await csv(identity.appId, query.month);
      return {
        statusCode: 200,
        headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${file.fileName}"` },
        body: file.body,
      };
    },

    ConsoleGetPayoutSettings: async ({ identity }) => answer(200, { min_payout: await minPayoutOf(office, identity.appId) }),

    ConsoleSetPayoutSettings: async ({ identity, body }) =>
      answer(200, { min_payout: await setMinPayout(office, identity.appId, consoleActor(identity), body.min_payout) }),
  } satisfies Implementations<typeof routes>;
}
