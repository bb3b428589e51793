/**
 * One affiliate: who, status and plan (admins and marketers approve, suspend
 * and assign a plan), its links, the report for a date range (chart, the same
 * figures by day in a table, CSV download) and the trace behind the
 * commission (players linking to their page, money events).
 */
import { useState } from 'preact/hooks';
import type { AffiliateDetail } from '../../../functions/shared/back-office/affiliates';
import type { AffiliateTrace } from '../../../functions/shared/back-office/affiliate-report';
import type { AffiliateReport, Plan } from '../../../functions/shared/domain/affiliate-program';
import { apiPath, ApiError, getJson, postJson } from '../api';
import { DayChart } from '../chart';
import { ErrorNote, Loading, Pager, Section, When } from '../components';
import { formatCount, formatDay, formatMoney, isoDay } from '../format';
import { useSession } from '../session';
import { useApi } from '../use-api';
import { StatusBadge } from './affiliates';

type PlanView = Omit<Plan, 'app_id'> & { terms: string };
type Outcome = { kind: 'error' | 'success'; text: string } | undefined;

const failure = (error: unknown, what: string): Outcome => ({
  kind: 'error',
  text:
    error instanceof ApiError
      ? error.status === 403
        ? `Not ${what}: your role may not change affiliates.`
        : `Not ${what}: ${error.message}${error.errors.length ? ` (${error.errors.join('; ')})` : ''}`
      : `Not ${what}: the server could not be reached.`,
});

export function AffiliatePage({ id }: { id: string }) {
  const { role } = useSession();
  const path = `/affiliates/${encodeURIComponent(id)}`;
  const affiliate = useApi(() => getJson<{ affiliate: AffiliateDetail }>(path), id);
  const back = (
    <p>
      <a href="/console/affiliates">← Affiliates</a>
    </p>
  );
  if (affiliate.error?.status === 404)
    return (
      <>
        {back}
        <h1>{id}</h1>
        <p role="alert">There is no affiliate with this id in this application.</p>
      </>
    );
  const a = affiliate.data?.affiliate;
  return (
    <>
      {back}
      <h1 class="profile-id">{a ? a.username : id}</h1>
      {affiliate.error && <ErrorNote error={affiliate.error} />}
      {!a && affiliate.loading && <Loading what="the affiliate" />}
      {a && (
        <>
          <p class="muted">
            <code>{a.affiliate_id}</code> · {`${a.first_name} ${a.last_name}`.trim()} · {a.email} · since <When at={a.created_at} />
          </p>
          <div class="grid player-grid">
            <Section title="Status and plan">
              <dl>
                <dt>Status</dt>
                <dd>
                  <StatusBadge status={a.status} />
                </dd>
                <dt>Plan</dt>
                <dd>{a.plan?.name ?? 'none'}</dd>
                <dt>Postbacks</dt>
                <dd>{a.postback_url_set ? 'on' : 'off'}</dd>
              </dl>
              {role !== 'viewer' && <Decisions affiliate={a} path={path} onChanged={affiliate.reload} />}
            </Section>
            <Section title="Links">
              {a.links.length === 0 ? (
                <p>No tracking links.</p>
              ) : (
                <ul>
                  {a.links.map((link) => (
                    <li key={link.link_id}>
                      <strong>{link.name}</strong> → {link.landing_url}
                      <br />
                      <small>
                        <code>{link.click_url}</code>
                      </small>
                    </li>
                  ))}
                </ul>
              )}
              {Object.keys(a.contacts).length > 0 && (
                <>
                  <h3>Contacts</h3>
                  <dl>
                    {Object.entries(a.contacts).flatMap(([name, value]) => [<dt key={`${name}-t`}>{name.replace(/_/g, ' ')}</dt>, <dd key={`${name}-d`}>{value}</dd>])}
                  </dl>
                </>
              )}
            </Section>
          </div>
          <ReportAndTrace path={path} />
        </>
      )}
    </>
  );
}

function Decisions({ affiliate, path, onChanged }: { affiliate: AffiliateDetail; path: string; onChanged: () => void }) {
  const plans = useApi(() => getJson<{ plans: PlanView[] }>('/plans'), 'plans');
  const [planId, setPlanId] = useState(affiliate.plan_id ?? '');
  const [busy, setBusy] = useState<string | undefined>();
  const [outcome, setOutcome] = useState<Outcome>();

  const run = async (what: string, call: () => Promise<unknown>, done: string) => {
    setBusy(what);
    setOutcome(undefined);
    try {
      await call();
      setOutcome({ kind: 'success', text: done });
      onChanged();
    } catch (error) {
      setOutcome(failure(error, what));
    } finally {
      setBusy(undefined);
    }
  };
  const setStatus = (status: 'approved' | 'suspended') =>
    run(status === 'approved' ? 'approved' : 'suspended', () => postJson(`${path}/status`, { status }), status === 'approved' ? 'Approved.' : 'Suspended.');
  const assign = (event: Event) => {
    event.preventDefault();
    const name = plans.data?.plans.find((plan) => plan.plan_id === planId)?.name ?? planId;
    void run('assigned', () => postJson(`${path}/plan`, { plan_id: planId }), `Plan “${name}” assigned.`);
  };

  return (
    <div class="decisions">
      <div class="button-row">
        {affiliate.status !== 'approved' && (
          <button type="button" onClick={() => setStatus('approved')} aria-busy={busy === 'approved'} disabled={busy !== undefined}>
            Approve
          </button>
        )}
        {affiliate.status !== 'suspended' && (
          <button type="button" class="secondary" onClick={() => setStatus('suspended')} aria-busy={busy === 'suspended'} disabled={busy !== undefined}>
            Suspend
          </button>
        )}
      </div>
      <form onSubmit={assign}>
        <label for="affiliate-plan">Plan</label>
        {plans.error && <ErrorNote error={plans.error} />}
        <fieldset role="group">
          <select id="affiliate-plan" name="plan_id" value={planId} onChange={(e) => setPlanId(e.currentTarget.value)}>
            <option value="" disabled>
              {plans.data ? (plans.data.plans.length ? 'choose a plan…' : 'no plans yet') : 'loading plans…'}
            </option>
            {plans.data?.plans.map((plan) => (
              <option key={plan.plan_id} value={plan.plan_id}>
                {plan.name} — {plan.terms}
              </option>
            ))}
          </select>
          <button type="submit" disabled={!planId || planId === affiliate.plan_id || busy !== undefined} aria-busy={busy === 'assigned'}>
            Assign plan
          </button>
        </fieldset>
      </form>
      {outcome && (
        <p role={outcome.kind === 'error' ? 'alert' : 'status'} class={outcome.kind}>
          {outcome.text}
        </p>
      )}
    </div>
  );
}

function defaultRange(): { from: string; to: string } {
  const today = new Date();
  return { from: isoDay(new Date(today.getTime() - 29 * 86_400_000)), to: isoDay(today) };
}

function ReportAndTrace({ path }: { path: string }) {
  const [typed, setTyped] = useState(defaultRange);
  const [range, setRange] = useState(typed);
  const report = useApi(() => getJson<AffiliateReport>(`${path}/report`, range), `${range.from}\n${range.to}`);
  const apply = (event: Event) => {
    event.preventDefault();
    setRange(typed);
  };
  return (
    <>
      <Section title="Report">
        <form class="range" onSubmit={apply} aria-label="Report period">
          <div class="grid">
            <label>
              From
              <input type="date" name="from" value={typed.from} onInput={(e) => setTyped({ ...typed, from: e.currentTarget.value })} required />
            </label>
            <label>
              To
              <input type="date" name="to" value={typed.to} onInput={(e) => setTyped({ ...typed, to: e.currentTarget.value })} required />
            </label>
            <div class="range-actions">
              <button type="submit">Show</button>
            </div>
          </div>
        </form>
        {report.error && <ErrorNote error={report.error} />}
        {!report.data && report.loading && <Loading what="the report" />}
        {report.data && <Report report={report.data} csv={apiPath(`${path}/report.csv`, range)} />}
      </Section>
      <Trace path={path} range={range} />
    </>
  );
}

const money = ['deposits', 'withdrawals', 'ngr', 'cpa', 'revshare', 'commission'] as const;

function Report({ report, csv }: { report: AffiliateReport; csv: string }) {
  const t = report.totals;
  return (
    <>
      <p>
        {formatDay(report.from)} – {formatDay(report.to)}: <strong>{formatMoney(t.commission, report.currency)}</strong> commission ({formatCount(t.clicks)} clicks,{' '}
        {formatCount(t.registrations)} registrations, {formatCount(t.ftds)} FTDs, {formatCount(t.qualified_ftds)} qualified). <a href={csv} download>Download CSV</a>
      </p>
      <DayChart days={report.days} />
      <figure class="table-scroll">
        <table class="striped report">
          <caption class="visually-hidden">The report by day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Clicks</th>
              <th scope="col">Registrations</th>
              <th scope="col">FTDs</th>
              <th scope="col">Qualified</th>
              {money.map((name) => (
                <th key={name} scope="col">
                  {name === 'ngr' ? 'NGR' : name === 'cpa' ? 'CPA' : name === 'revshare' ? 'RevShare' : name.charAt(0).toUpperCase() + name.slice(1)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {report.days.map((day) => (
              <tr key={day.date}>
                <th scope="row">{formatDay(day.date)}</th>
                <td>{formatCount(day.clicks)}</td>
                <td>{formatCount(day.registrations)}</td>
                <td>{formatCount(day.ftds)}</td>
                <td>{formatCount(day.qualified_ftds)}</td>
                {money.map((name) => (
                  <td key={name}>{formatMoney(day[name], report.currency)}</td>
                ))}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td>{formatCount(t.clicks)}</td>
              <td>{formatCount(t.registrations)}</td>
              <td>{formatCount(t.ftds)}</td>
              <td>{formatCount(t.qualified_ftds)}</td>
              {money.map((name) => (
                <td key={name}>{formatMoney(t[name], report.currency)}</td>
              ))}
            </tr>
          </tfoot>
        </table>
      </figure>
    </>
  );
}

const playerLink = (profileId: string) => <a href={`/console/players/${encodeURIComponent(profileId)}`}>{profileId}</a>;

function Trace({ path, range }: { path: string; range: { from: string; to: string } }) {
  const [cursor, setCursor] = useState<string | undefined>();
  const key = `${range.from}\n${range.to}`;
  const [forKey, setForKey] = useState(key);
  if (forKey !== key) {
    setForKey(key);
    setCursor(undefined);
  }
  const trace = useApi(() => getJson<AffiliateTrace>(`${path}/trace`, { ...range, cursor }), `${key}\n${cursor ?? ''}`);
  return (
    <Section title="Behind the commission">
      {trace.error && <ErrorNote error={trace.error} />}
      {!trace.data && trace.loading && <Loading what="the trace" />}
      {trace.data && (
        <>
          <h3>First deposits ({trace.data.ftds.length})</h3>
          {trace.data.ftds.length === 0 ? (
            <p>None in the period.</p>
          ) : (
            <ul>
              {trace.data.ftds.map((ftd) => (
                <li key={ftd.insert_id}>
                  {formatDay(ftd.day)}: {playerLink(ftd.profile_id)} deposited {formatMoney(ftd.amount, trace.data!.currency)} —{' '}
                  {ftd.qualified ? 'qualified (a CPA line)' : 'below the plan’s minimum'}
                </li>
              ))}
            </ul>
          )}
          <h3>Registrations ({trace.data.registrations.length})</h3>
          {trace.data.registrations.length === 0 ? (
            <p>None in the period.</p>
          ) : (
            <ul>
              {trace.data.registrations.map((row) => (
                <li key={row.profile_id}>
                  {formatDay(row.day)}: {playerLink(row.profile_id)} <small class="muted">(link {row.link_id})</small>
                </li>
              ))}
            </ul>
          )}
          <h3>Players and their money events</h3>
          {trace.data.players.length === 0 ? (
            <p>No players attributed by the end of the period.</p>
          ) : (
            <figure class="table-scroll">
              <table class="striped">
                <thead>
                  <tr>
                    <th scope="col">Player</th>
                    <th scope="col">Money events in the period</th>
                  </tr>
                </thead>
                <tbody>
                  {trace.data.players.map((player) => (
                    <tr key={player.profile_id}>
                      <th scope="row">{playerLink(player.profile_id)}</th>
                      <td>
                        {player.events.length === 0 ? (
                          <span class="muted">none</span>
                        ) : (
                          <ul class="details">
                            {player.events.map((event) => (
                              <li key={event.urm_insert_id}>
                                <When at={event.urm_date_time} />: <code>{event.event}</code> ({event.kind}) {event.amount === undefined ? '' : String(event.amount)}{' '}
                                {event.currency === undefined ? '' : String(event.currency)}
                              </li>
                            ))}
                          </ul>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </figure>
          )}
          <Pager next={trace.data.next_cursor} atFirst={cursor === undefined} onNext={setCursor} onFirst={() => setCursor(undefined)} />
        </>
      )}
    </Section>
  );
}
