/**
 * One month's statement as a printable page: the operator's application,
 * the month, the lines and the status, on one A4 page when printed (the
 * print stylesheet hides the portal's frame). The browser's "Save as PDF"
 * makes the PDF.
 */
import { styleHash } from '../../http/html';
import { payoutMethodNames, type PayoutDetails } from '../../domain/payouts';
import type { Statement } from '../../domain/statements';
import { formatDay, formatMoney } from '../../ui/format';
import { Layout } from './layout';
import { monthName, statusWords } from './payments';

/** Only for this page, allowed by its own hash beside the portal's stylesheet. */
export const statementPrintCss = `
.statement-lines { width: 100%; border-collapse: collapse; }
.statement-lines th, .statement-lines td { padding: 0.4rem 0.5rem; border-bottom: 1px solid var(--urm-line); text-align: left; }
.statement-lines td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.statement-lines tr.total th, .statement-lines tr.total td { font-weight: 700; border-top: 2px solid currentColor; }
.statement-meta { display: grid; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); gap: 0.5rem 1.5rem; margin: 0 0 1rem; }
.statement-meta dt { font-size: 0.8rem; color: var(--urm-ink-soft); }
.statement-meta dd { margin: 0; font-weight: 600; }
.print-hint { margin-top: 1rem; }
@page { size: A4; margin: 16mm; }
@media print {
  .bar, .skip, .print-hint { display: none !important; }
  body, .page { background: #fff; color: #000; margin: 0; padding: 0; max-width: none; }
  .card { box-shadow: none; border: 0; padding: 0; break-inside: avoid; }
}
`;
export const statementPrintCssHash = styleHash(statementPrintCss);

export interface StatementView {
  appName: string;
  name: string;
  csrf: string;
  statement: Statement;
  payout?: PayoutDetails;
}

const lineRow = (label: string, amount: string, currency: string, id?: string) => (
  <tr id={id}>
    <th scope="row">{label}</th>
    <td class="num">{formatMoney(amount, currency)}</td>
  </tr>
);

export function StatementPage({ appName, name, csrf, statement: s, payout }: StatementView) {
  return (
    <Layout title={`Statement ${monthName(s.month)}`} appName={appName} signedIn={{ name, csrf, current: 'payments' }} extraCss={statementPrintCss}>
      <section class="card" aria-labelledby="statement-title">
        <h1 id="statement-title">
          {appName}: statement for {monthName(s.month)}
        </h1>
        <dl class="statement-meta">
          <div>
            <dt>Affiliate</dt>
            <dd>{name}</dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd id="statement-status">{statusWords[s.status]}</dd>
          </div>
          <div>
            <dt>Currency</dt>
            <dd>{s.currency}</dd>
          </div>
          {payout && (
            <div>
              <dt>Payout method</dt>
              <dd>{payoutMethodNames[payout.payout_method]}</dd>
            </div>
          )}
        </dl>
        <table class="statement-lines" id="statement-lines">
          <tbody>
            {lineRow(`CPA (${s.qualified_ftds} qualified first deposits)`, s.cpa, s.currency)}
            {lineRow('RevShare (after carry-over)', s.revshare, s.currency)}
            {s.adjustments.map((line) => lineRow(`Adjustment: ${line.reason}`, line.amount, s.currency))}
            {lineRow('Brought forward', s.brought_forward, s.currency)}
            <tr class="total">
              <th scope="row">Total</th>
              <td class="num">{formatMoney(s.total, s.currency)}</td>
            </tr>
            {lineRow('Carried forward (below the minimum payout)', s.carried_forward, s.currency)}
            {lineRow('Due', s.due, s.currency, 'statement-due')}
          </tbody>
        </table>
        {s.payment && (
          <p id="statement-payment">
            Paid on {formatDay(s.payment.paid_at)}, reference {s.payment.reference}.
          </p>
        )}
        {s.status === 'open' && <p class="muted">This month is open: its figures may still change until it is approved.</p>}
        <p class="muted print-hint">
          To keep a copy, print this page or save it as PDF from your browser’s print dialog. <a href="payments">Back to payments</a>
        </p>
      </section>
    </Layout>
  );
}
