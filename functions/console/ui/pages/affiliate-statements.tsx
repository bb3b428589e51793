/**
 * An affiliate's monthly statements on its console page: each month's lines
 * and status, approving the next month, manual adjustments on open months,
 * recording a payment, the payout details the affiliate gave, and the
 * month's CSV of every affiliate's approved statement for accounting.
 */
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import type { ConsoleAnswer } from '../../answers';
import { Field, fieldProps } from '../../../ui/design/field';
import { Card, TableRegion } from '../../../ui/design/page';
import { formatDay, formatMoney } from '../../../ui/format';
import { errorsOf, FormActions, FormFailure, useChange } from '../actions';
import { apiPath, getJson, postJson } from '../api';
import { ErrorNote, Loading } from '../components';
import { useApi } from '../use-api';

type Statements = ConsoleAnswer<'ConsoleAffiliateStatements'>;
type Statement = Statements['statements'][number];

const forbidden = 'Your role may not change statements.';
const statusWords = { open: 'Open', approved: 'Approved', paid: 'Paid' } as const;
const thisMonth = () => new Date().toISOString().slice(0, 7);
const today = () => new Date().toISOString().slice(0, 10);

/** The month that may be approved now: the one after the last approved, once it has ended (any ended one before the first approval). */
function approvable(list: Statements, statement: Statement): boolean {
  if (statement.status !== 'open' || statement.month >= thisMonth()) return false;
  if (list.last_closed_month === null) return true;
  const [year, month] = list.last_closed_month.split('-').map(Number);
  const next = new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 7);
  return statement.month === next;
}

export function AffiliateStatements({ path, canChange }: { path: string; canChange: boolean }) {
  const list = useApi(() => getJson<Statements>(`${path}/statements`), `${path}/statements`);
  const { busy, failed, run } = useChange(forbidden);
  const data = list.data;
  const approve = async (month: string) => {
    const done = await run(
      `approve-${month}`,
      () => postJson<ConsoleAnswer<'ConsoleApproveStatement'>>(`${path}/statements/${month}/approve`, {}),
      ({ statement }) => `${month} approved: ${formatMoney(statement.due, statement.currency)} due`,
    );
    if (done) list.reload();
  };
  const approvalFailure = failed();
  const csvMonth = data?.last_closed_month ?? undefined;
  return (
    <Card
      title="Statements"
      id="statements"
      actions={
        csvMonth && (
          <a class="button small" href={apiPath('/statements.csv', { month: csvMonth })} download>
            {`Accounting CSV ${csvMonth}`}
          </a>
        )
      }
    >
      {list.error && <ErrorNote error={list.error} />}
      {!data && list.loading && <Loading what="the statements" />}
      {data && (
        <div class="stack">
          <dl class="pairs">
            <dt>Balance</dt>
            <dd id="statement-balance">{formatMoney(data.balance, data.currency)} approved, not paid</dd>
            <dt>Minimum payout</dt>
            <dd>{formatMoney(data.min_payout, data.currency)}</dd>
            <dt>Paid by</dt>
            <dd class="break">{data.payout ? data.payout.summary : <span class="muted">no payment details yet</span>}</dd>
          </dl>
          <TableRegion label="Statements by month">
            <table id="statement-table">
              <thead>
                <tr>
                  <th scope="col">Month</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">
                    CPA
                  </th>
                  <th scope="col" class="num">
                    RevShare
                  </th>
                  <th scope="col" class="num">
                    Adjustments
                  </th>
                  <th scope="col" class="num">
                    Brought forward
                  </th>
                  <th scope="col" class="num">
                    Total
                  </th>
                  <th scope="col" class="num">
                    Due
                  </th>
                  {canChange && <th scope="col">Action</th>}
                </tr>
              </thead>
              <tbody>
                {data.statements.map((s) => (
                  <Fragment key={s.month}>
                    <tr>
                      <th scope="row" class="nowrap">
                        {s.month}
                      </th>
                      <td>{statusWords[s.status]}</td>
                      <td class="num">{formatMoney(s.cpa, s.currency)}</td>
                      <td class="num">{formatMoney(s.revshare, s.currency)}</td>
                      <td class="num">{formatMoney(sumOf(s.adjustments.map((line) => line.amount)), s.currency)}</td>
                      <td class="num">{formatMoney(s.brought_forward, s.currency)}</td>
                      <td class="num">{formatMoney(s.total, s.currency)}</td>
                      <td class="num">{formatMoney(s.due, s.currency)}</td>
                      {canChange && (
                        <td>
                          {approvable(data, s) && (
                            <button
                              type="button"
                              class="small primary"
                              aria-busy={busy === `approve-${s.month}`}
                              disabled={busy !== undefined}
                              onClick={() => approve(s.month)}
                            >
                              {`Approve ${s.month}`}
                            </button>
                          )}
                        </td>
                      )}
                    </tr>
                    {s.adjustments.map((line) => (
                      <tr key={line.adjustment_id} class="sub-row">
                        <td />
                        <td colSpan={3} class="wrap">
                          {line.kind === 'late' ? line.reason : `${line.reason} (${line.created_by ?? ''})`}
                        </td>
                        <td class="num">{formatMoney(line.amount, s.currency)}</td>
                        <td colSpan={canChange ? 4 : 3} />
                      </tr>
                    ))}
                    {s.payment && (
                      <tr class="sub-row">
                        <td />
                        <td colSpan={canChange ? 8 : 7} class="wrap">
                          {`Paid on ${formatDay(s.payment.paid_at)}, reference ${s.payment.reference}, by ${s.payment.paid_by}`}
                        </td>
                      </tr>
                    )}
                  </Fragment>
                ))}
              </tbody>
            </table>
          </TableRegion>
          {approvalFailure && !approvalFailure.errors.length && <FormFailure failure={approvalFailure} not="Not approved" />}
          {canChange && (
            <div class="grid-wide stack">
              <AdjustmentForm path={path} months={data.statements.filter((s) => s.status === 'open').map((s) => s.month)} onDone={list.reload} />
              <PaymentForm
                path={path}
                months={data.statements.filter((s) => s.status === 'approved' && s.due !== '0.00' && !s.due.startsWith('-')).map((s) => s.month)}
                onDone={list.reload}
              />
            </div>
          )}
        </div>
      )}
    </Card>
  );
}

/** Display only: the server's lines are exact decimals; cents as integers keep the sum exact. */
function sumOf(amounts: string[]): string {
  const cents = amounts.reduce((total, amount) => total + BigInt(amount.replace('.', '')), 0n);
  const sign = cents < 0n ? '-' : '';
  const digits = (cents < 0n ? -cents : cents).toString().padStart(3, '0');
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

function AdjustmentForm({ path, months, onDone }: { path: string; months: string[]; onDone: () => void }) {
  const [month, setMonth] = useState(months[0] ?? '');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const { busy, failed, run } = useChange(forbidden);
  const failure = failed('adjust');
  const errors = { amount: errorsOf(failure, 'amount'), reason: errorsOf(failure, 'reason') };
  const submit = async (event: Event) => {
    event.preventDefault();
    const done = await run(
      'adjust',
      () => postJson<ConsoleAnswer<'ConsoleAddAdjustment'>>(`${path}/statements/${month || months[0]}/adjustments`, { amount: amount.trim(), reason }),
      ({ adjustment }) => `Adjustment of ${adjustment.amount} added`,
    );
    if (done) {
      setAmount('');
      setReason('');
      onDone();
    }
  };
  return (
    <form onSubmit={submit} aria-label="Add adjustment">
      <h3>Add adjustment</h3>
      <Field id="adjust-month" label="Month">
        <select {...fieldProps('adjust-month', [])} value={month || months[0]} onChange={(e) => setMonth(e.currentTarget.value)}>
          {months.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </Field>
      <Field id="adjust-amount" label="Amount" hint="Negative takes away, e.g. -25.50." errors={errors.amount}>
        <input
          {...fieldProps('adjust-amount', errors.amount, true)}
          inputMode="decimal"
          value={amount}
          onInput={(e) => setAmount(e.currentTarget.value)}
          required
          maxLength={16}
        />
      </Field>
      <Field id="adjust-reason" label="Reason" errors={errors.reason}>
        <input {...fieldProps('adjust-reason', errors.reason)} value={reason} onInput={(e) => setReason(e.currentTarget.value)} required maxLength={200} />
      </Field>
      <FormFailure failure={failure} not="Not added" fields={['amount', 'reason']} />
      <FormActions>
        <button type="submit" aria-busy={busy === 'adjust'} disabled={busy !== undefined || months.length === 0}>
          Add adjustment
        </button>
      </FormActions>
    </form>
  );
}

function PaymentForm({ path, months, onDone }: { path: string; months: string[]; onDone: () => void }) {
  const [month, setMonth] = useState('');
  const [reference, setReference] = useState('');
  const [paidAt, setPaidAt] = useState(today());
  const { busy, failed, run } = useChange(forbidden);
  const failure = failed('pay');
  const errors = { reference: errorsOf(failure, 'reference'), paidAt: errorsOf(failure, 'paid_at') };
  const chosen = months.includes(month) ? month : (months[0] ?? '');
  const submit = async (event: Event) => {
    event.preventDefault();
    const done = await run(
      'pay',
      () => postJson<ConsoleAnswer<'ConsoleMarkStatementPaid'>>(`${path}/statements/${chosen}/payment`, { reference, paid_at: paidAt }),
      ({ statement }) => `${statement.month} marked paid`,
    );
    if (done) {
      setReference('');
      onDone();
    }
  };
  return (
    <form onSubmit={submit} aria-label="Record payment">
      <h3>Record payment</h3>
      {months.length === 0 ? (
        <p class="muted">No approved statement has anything due.</p>
      ) : (
        <>
          <Field id="pay-month" label="Statement">
            <select {...fieldProps('pay-month', [])} value={chosen} onChange={(e) => setMonth(e.currentTarget.value)}>
              {months.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </Field>
          <Field id="pay-reference" label="Payment reference" errors={errors.reference}>
            <input
              {...fieldProps('pay-reference', errors.reference)}
              value={reference}
              onInput={(e) => setReference(e.currentTarget.value)}
              required
              maxLength={100}
            />
          </Field>
          <Field id="pay-date" label="Paid on" errors={errors.paidAt}>
            <input
              {...fieldProps('pay-date', errors.paidAt)}
              type="date"
              value={paidAt}
              max={today()}
              onInput={(e) => setPaidAt(e.currentTarget.value)}
              required
            />
          </Field>
          <FormFailure failure={failure} not="Not recorded" fields={['reference', 'paid_at']} />
          <FormActions>
            <button type="submit" class="primary" aria-busy={busy === 'pay'} disabled={busy !== undefined}>
              Mark paid
            </button>
          </FormActions>
        </>
      )}
    </form>
  );
}
