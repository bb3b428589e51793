/**
 * The affiliate's payments: the balance (approved, not yet paid), the
 * current deal in words, the statements by month with their status, and the
 * payout details form. Each statement opens as a printable page.
 */
import { payoutFields, payoutMethodNames, payoutMethods, type PayoutDetails, type PayoutMethod } from '../../domain/payouts';
import type { Statement } from '../../domain/statements';
import { styleHash } from '../../http/html';
import { PageHeader } from '../../ui/design/page';
import { formatDay, formatMoney } from '../../ui/format';
import { Csrf, Field, Layout, Notice, TableRegion } from './layout';

export interface PaymentsView {
  appName?: string;
  name: string;
  csrf: string;
  currency: string;
  balance: string;
  minPayout: string;
  /** The deal in words, or undefined without a plan. */
  deal?: string;
  statements: Statement[];
  payout?: PayoutDetails;
  form?: { fields: Record<string, string>; errors: Record<string, string> };
  done?: 'saved';
}

/** Only the chosen method's fields show (no script in the portal: the radio's state does it); without :has(), all show. */
export const paymentsCss = payoutMethods
  .map((method) => `form:has(input[name="payout_method"]:checked):not(:has(input[value="${method}"]:checked)) .payout-${method} { display: none; }`)
  .join('\n');
export const paymentsCssHash = styleHash(paymentsCss);

export const statusWords: Record<Statement['status'], string> = { open: 'Open', approved: 'Approved', paid: 'Paid' };

const monthNames = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `2026-03` → `March 2026`. */
export const monthName = (month: string) => `${monthNames[Number(month.slice(5, 7)) - 1] ?? '?'} ${month.slice(0, 4)}`;

export function PaymentsPage(props: PaymentsView) {
  const chosen = (props.form?.fields.payout_method ?? props.payout?.payout_method ?? 'bank_transfer') as PayoutMethod;
  const fieldValue = (name: string) => props.form?.fields[name] ?? (props.payout?.payout_method === chosen ? props.payout.payout_details[name] : undefined);
  return (
    <Layout title="Payments" appName={props.appName} signedIn={{ name: props.name, csrf: props.csrf, current: 'payments' }} extraCss={paymentsCss}>
      <PageHeader title="Payments" subtitle="Your monthly statements, what is owed to you, and where we send it." />
      {props.done === 'saved' && (
        <Notice kind="ok" id="payout-saved">
          Payment details saved.
        </Notice>
      )}
      <section class="card" aria-labelledby="balance-heading">
        <h2 id="balance-heading">Balance</h2>
        <p class="kpi">
          <span class="kpi-value" id="balance">
            {formatMoney(props.balance, props.currency)}
          </span>
        </p>
        <p class="muted">
          Approved and not yet paid. Minimum payout {formatMoney(props.minPayout, props.currency)}: a smaller total is carried to the next month.
        </p>
        <p id="current-deal">
          Your deal: <strong>{props.deal ?? 'no commission plan yet'}</strong>
        </p>
      </section>
      <section class="card" aria-labelledby="statements-heading">
        <h2 id="statements-heading">Statements</h2>
        {props.statements.length === 0 ? (
          <p class="empty">No statements yet.</p>
        ) : (
          <TableRegion label="Statements">
            <table id="statements">
              <thead>
                <tr>
                  <th scope="col">Month</th>
                  <th scope="col" class="left">
                    Status
                  </th>
                  <th scope="col" class="num">
                    Total
                  </th>
                  <th scope="col" class="num">
                    Due
                  </th>
                  <th scope="col" class="left">
                    Payment
                  </th>
                </tr>
              </thead>
              <tbody>
                {props.statements.map((s) => (
                  <tr key={s.month}>
                    <th scope="row">
                      <a href={`statement?month=${s.month}`}>{monthName(s.month)}</a>
                    </th>
                    <td class="left">{statusWords[s.status]}</td>
                    <td class="num">{formatMoney(s.total, s.currency)}</td>
                    <td class="num">{formatMoney(s.due, s.currency)}</td>
                    <td class="left wrap">{s.payment ? `${formatDay(s.payment.paid_at)}, ${s.payment.reference}` : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
      </section>
      <section class="card" aria-labelledby="payout-heading">
        <h2 id="payout-heading">Payment details</h2>
        <form method="post" action="payments" novalidate>
          <Csrf token={props.csrf} />
          <fieldset class="choices">
            <legend>Payout method</legend>
            {payoutMethods.map((method) => (
              <label key={method} class="choice">
                <input type="radio" name="payout_method" value={method} checked={chosen === method} /> {payoutMethodNames[method]}
              </label>
            ))}
          </fieldset>
          {props.form?.errors.payout_method && <Notice kind="bad">{props.form.errors.payout_method}</Notice>}
          {payoutMethods.map((method) => (
            <fieldset key={method} class={`choices payout-${method}`}>
              <legend>{payoutMethodNames[method]}</legend>
              {payoutFields[method].map((field) => (
                <Field
                  key={field.name}
                  name={field.name}
                  label={field.label}
                  type="text"
                  value={method === chosen ? fieldValue(field.name) : undefined}
                  error={method === chosen ? props.form?.errors[field.name] : undefined}
                />
              ))}
            </fieldset>
          ))}
          <div class="form-actions">
            <button type="submit" class="primary">
              Save payment details
            </button>
          </div>
        </form>
      </section>
    </Layout>
  );
}
