/**
 * Affiliates: the application's affiliates with status and plan, filtered by
 * status, paged; and the commission plans, which admins and marketers create here.
 */
import { useState } from 'preact/hooks';
import type { ConsoleAnswer } from '../../answers';
import { Result, useAction } from '../actions';
import { getJson, postJson } from '../api';
import { ErrorNote, Loading, Pager, Section, When } from '../components';
import { useSession } from '../session';
import { useApi } from '../use-api';

export const AFFILIATE_PAGE_SIZE = 25;

/** A plan as GET /console/api/plans answers it: its terms in words. */
export type PlanView = ConsoleAnswer<'ConsoleListPlans'>['plans'][number];
const statuses = ['pending', 'approved', 'suspended'] as const;

export function StatusBadge({ status }: { status: string }) {
  return <mark class={`status status-${status}`}>{status}</mark>;
}

export function AffiliatesPage() {
  const [status, setStatus] = useState('');
  const [cursor, setCursor] = useState<string | undefined>();
  const page = useApi(
    () => getJson<ConsoleAnswer<'ConsoleListAffiliates'>>('/affiliates', { status, cursor, limit: AFFILIATE_PAGE_SIZE }),
    `${status}\n${cursor ?? ''}`,
  );
  return (
    <>
      <h1>Affiliates</h1>
      <form class="status-filter" aria-label="Filter affiliates" onSubmit={(e) => e.preventDefault()}>
        <label for="affiliate-status">Status</label>
        <select
          id="affiliate-status"
          name="status"
          value={status}
          onChange={(e) => {
            setCursor(undefined);
            setStatus(e.currentTarget.value);
          }}
        >
          <option value="">all</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </form>
      {page.error && <ErrorNote error={page.error} />}
      {!page.data && page.loading && <Loading what="affiliates" />}
      {page.data && (
        <>
          {page.data.affiliates.length === 0 ? (
            <p>
              {status ? `No ${status} affiliates on this page.` : 'No affiliates yet.'}
              {page.data.next_cursor ? ' There may be more: see the next page.' : ''}
            </p>
          ) : (
            <figure class="table-scroll">
              <table class="striped">
                <thead>
                  <tr>
                    <th scope="col">Affiliate</th>
                    <th scope="col">Name</th>
                    <th scope="col">Email</th>
                    <th scope="col">Status</th>
                    <th scope="col">Plan</th>
                    <th scope="col">Since</th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.affiliates.map((affiliate) => (
                    <tr key={affiliate.affiliate_id}>
                      <th scope="row">
                        <a href={`/console/affiliates/${encodeURIComponent(affiliate.affiliate_id)}`}>{affiliate.username}</a>
                      </th>
                      <td>{`${affiliate.first_name} ${affiliate.last_name}`.trim() || '—'}</td>
                      <td>{affiliate.email}</td>
                      <td>
                        <StatusBadge status={affiliate.status} />
                      </td>
                      <td>{affiliate.plan?.name ?? <span class="muted">none</span>}</td>
                      <td>
                        <When at={affiliate.created_at} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </figure>
          )}
          <Pager next={page.data.next_cursor} atFirst={cursor === undefined} onNext={setCursor} onFirst={() => setCursor(undefined)} />
        </>
      )}
      <Plans />
    </>
  );
}

/** The application's plans, and (admins, marketers) a new one: CPA, RevShare or both. */
function Plans() {
  const { role } = useSession();
  const plans = useApi(() => getJson<ConsoleAnswer<'ConsoleListPlans'>>('/plans'), 'plans');
  return (
    <Section title="Plans">
      {plans.error && <ErrorNote error={plans.error} />}
      {!plans.data && plans.loading && <Loading what="plans" />}
      {plans.data &&
        (plans.data.plans.length === 0 ? (
          <p>No plans yet: an affiliate without a plan earns nothing.</p>
        ) : (
          <figure class="table-scroll">
            <table class="striped">
              <thead>
                <tr>
                  <th scope="col">Plan</th>
                  <th scope="col">Terms</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {plans.data.plans.map((plan) => (
                  <tr key={plan.plan_id}>
                    <th scope="row">
                      {plan.name} <small class="muted">{plan.plan_id}</small>
                    </th>
                    <td>{plan.terms}</td>
                    <td>
                      <When at={plan.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </figure>
        ))}
      {role !== 'viewer' && <NewPlan onCreated={plans.reload} />}
    </Section>
  );
}

function NewPlan({ onCreated }: { onCreated: () => void }) {
  const empty = { name: '', cpa: '', minDeposit: '', revshare: '', carryOver: false };
  const [form, setForm] = useState(empty);
  const { busy, outcome, run } = useAction({ forbidden: 'Your role may not create plans.' });
  const field = (name: 'name' | 'cpa' | 'minDeposit' | 'revshare') => ({
    value: form[name],
    onInput: (e: Event) => setForm({ ...form, [name]: (e.currentTarget as HTMLInputElement).value }),
  });
  const create = async (event: Event) => {
    event.preventDefault();
    const body = {
      name: form.name,
      ...(form.cpa.trim() ? { cpa: { amount: form.cpa.trim(), ...(form.minDeposit.trim() ? { min_deposit: form.minDeposit.trim() } : {}) } } : {}),
      ...(form.revshare.trim() ? { revshare: { percent: form.revshare.trim(), carry_over: form.carryOver } } : {}),
    };
    const answer = await run(
      'plan',
      () => postJson<ConsoleAnswer<'ConsoleCreatePlan'>>('/plans', body),
      ({ plan }) => `Plan “${plan.name}” created: ${plan.terms}.`,
    );
    if (answer) {
      setForm(empty);
      onCreated();
    }
  };
  return (
    <form class="new-plan" onSubmit={create} aria-label="New plan">
      <h3>New plan</h3>
      <p class="muted">CPA, RevShare or both (hybrid): fill in what the plan pays. Amounts are in the application's currency.</p>
      <label for="plan-name">Name</label>
      <input id="plan-name" name="name" required maxLength={100} autocomplete="off" {...field('name')} />
      <div class="grid">
        <label>
          CPA per qualified first deposit
          <input name="cpa_amount" inputMode="decimal" placeholder="e.g. 50" autocomplete="off" {...field('cpa')} />
        </label>
        <label>
          Smallest qualifying first deposit
          <input name="cpa_min_deposit" inputMode="decimal" placeholder="0" autocomplete="off" disabled={!form.cpa.trim()} {...field('minDeposit')} />
        </label>
        <label>
          RevShare, % of NGR
          <input name="revshare_percent" inputMode="decimal" placeholder="e.g. 25" autocomplete="off" {...field('revshare')} />
        </label>
      </div>
      <label>
        <input
          type="checkbox"
          role="switch"
          name="carry_over"
          checked={form.carryOver}
          disabled={!form.revshare.trim()}
          onChange={(e) => setForm({ ...form, carryOver: e.currentTarget.checked })}
        />
        Carry a month's negative RevShare into the next month
      </label>
      <button type="submit" aria-busy={busy === 'plan'} disabled={busy !== undefined}>
        Create plan
      </button>
      <Result outcome={outcome} />
    </form>
  );
}
