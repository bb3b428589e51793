/**
 * One affiliate: who, status and plan (admins and marketers approve, suspend
 * and assign a plan), its links (they add one), the report for a date range
 * (KPI cards against the previous period of the same length, the chart and
 * the same figures by day in a table, CSV download), the trace behind the
 * commission (players linking to their page, money events) and its postbacks
 * (they set the URL, turn them off, make a new signing secret) with the
 * delivery log.
 */
import { Fragment } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import type { ConsoleAnswer } from '../../answers';
import type { PostbackEvent } from '../../../domain/postbacks';
import { Badge, StatusBadge } from '../../../ui/design/badge';
import { ConfirmButton } from '../../../ui/design/dialog';
import { Field, fieldProps } from '../../../ui/design/field';
import { type Kpi, KpiCards } from '../../../ui/design/kpi';
import { Card, PageHeader, TableRegion } from '../../../ui/design/page';
import { type ChartSeries, TimeChart } from '../../../ui/design/time-chart';
import { Money, Visible, When } from '../../../ui/design/value';
import { figure, formatCount, formatDay, formatRate, isoDay, subIdLabel } from '../../../ui/format';
import { ShownOnce } from '../actions';
import { AffiliateStatements } from './affiliate-statements';
import { apiPath, getJson, postJson } from '../api';
import { ErrorNote, Loading } from '../components';
import { useSession } from '../session';
import { type Loaded, useApi } from '../use-api';
import { errorsOf, FormActions, FormFailure, useChange } from '../actions';

/** How a refused change to an affiliate reads. */
const forbidden = 'Your role may not change affiliates.';
type Affiliate = ConsoleAnswer<'ConsoleGetAffiliate'>['affiliate'];
type Report = ConsoleAnswer<'ConsoleAffiliateReport'>;

export function AffiliatePage({ id }: { id: string }) {
  const { role } = useSession();
  const path = `/affiliates/${encodeURIComponent(id)}`;
  const affiliate = useApi(() => getJson<ConsoleAnswer<'ConsoleGetAffiliate'>>(path), id);
  // The plans to assign, read in parallel with the affiliate rather than once it is shown; a viewer assigns none.
  const plans = useApi(() => getJson<ConsoleAnswer<'ConsoleListPlans'>>('/plans'), 'plans', role !== 'viewer');
  const canChange = role !== 'viewer';
  const a = affiliate.data?.affiliate;
  const trail = [{ label: 'Affiliates', href: '/console/affiliates' }, { label: <Visible text={a ? a.username : id} /> }];
  if (affiliate.error?.status === 404)
    return (
      <>
        <PageHeader trail={trail} title={<Visible text={id} />} />
        <p role="alert" class="alert tone-danger">
          There is no affiliate with this id in this application.
        </p>
      </>
    );
  return (
    <>
      <PageHeader
        trail={trail}
        title={<Visible text={a ? a.username : id} />}
        subtitle={
          a && (
            <span class="affiliate-who">
              <StatusBadge status={a.status} />
              <span>{`${a.first_name} ${a.last_name}`.trim() || 'No name given'}</span>
              <span class="break">{a.email}</span>
              <span>
                since <When at={a.created_at} />
              </span>
            </span>
          )
        }
        actions={a && canChange && <StatusActions affiliate={a} path={path} onChanged={affiliate.reload} />}
      />
      {affiliate.error && <ErrorNote error={affiliate.error} />}
      {!a && affiliate.loading && <Loading what="the affiliate" />}
      {a && (
        <div class="grid-wide">
          <Card title="Status and plan">
            <dl class="pairs">
              <dt>Status</dt>
              <dd>
                <StatusBadge status={a.status} />
              </dd>
              <dt>Plan</dt>
              <dd>{a.plan?.name ?? <span class="muted">none</span>}</dd>
              <dt>Postbacks</dt>
              <dd>{a.postback_url_set ? 'on' : 'off'}</dd>
              <dt>Affiliate id</dt>
              <dd>
                <code>
                  <Visible text={a.affiliate_id} />
                </code>
              </dd>
              {Object.entries(a.contacts).map(([name, value]) => (
                <Fragment key={name}>
                  <dt>{name.replace(/_/g, ' ')}</dt>
                  <dd class="break">{value}</dd>
                </Fragment>
              ))}
            </dl>
            {canChange && <AssignPlan affiliate={a} plans={plans} path={path} onChanged={affiliate.reload} />}
          </Card>
          <Card title="Deals">
            <DealHistory deals={a.deals} />
          </Card>
          <Card title="Links">
            <Links links={a.links} />
            {canChange && <NewLink path={path} onCreated={affiliate.reload} />}
          </Card>
        </div>
      )}
      {/* Not waiting for the affiliate: these read by its id, in parallel with it (an unknown id shows the 404 above instead). */}
      {!affiliate.error && (
        <>
          <ReportAndTrace path={path} />
          <AffiliateStatements path={path} canChange={canChange} />
          <Postbacks path={path} canChange={canChange} onChanged={affiliate.reload} />
        </>
      )}
    </>
  );
}

/** Approve (the one primary action while it waits) and suspend (destructive: asks first). */
function StatusActions({ affiliate, path, onChanged }: { affiliate: Affiliate; path: string; onChanged: () => void }) {
  const { busy, failed, run } = useChange(forbidden);
  const setStatus = (status: 'approved' | 'suspended') =>
    run(
      status,
      () => postJson(`${path}/status`, { status }),
      () => {
        onChanged();
        return status === 'approved' ? 'Approved.' : 'Suspended.';
      },
    );
  return (
    <div class="status-actions">
      <div class="cluster">
        {affiliate.status !== 'approved' && (
          <button type="button" class="primary" onClick={() => setStatus('approved')} aria-busy={busy === 'approved'} disabled={busy !== undefined}>
            Approve
          </button>
        )}
        {affiliate.status !== 'suspended' && (
          <ConfirmButton
            label="Suspend"
            title={`Suspend ${affiliate.username}?`}
            confirmLabel="Suspend affiliate"
            onConfirm={() => void setStatus('suspended')}
            busy={busy === 'suspended'}
            disabled={busy !== undefined}
          >
            <p>
              Its links stop counting: a click goes straight to the landing page and earns nothing. It can no longer sign in to the portal. Approving it again
              undoes this.
            </p>
          </ConfirmButton>
        )}
      </div>
      <FormFailure failure={failed()} />
    </div>
  );
}

function AssignPlan({
  affiliate,
  plans,
  path,
  onChanged,
}: {
  affiliate: Affiliate;
  plans: Loaded<ConsoleAnswer<'ConsoleListPlans'>>;
  path: string;
  onChanged: () => void;
}) {
  const [planId, setPlanId] = useState(affiliate.plan_id ?? '');
  const today = isoDay(new Date());
  const [from, setFrom] = useState(today);
  const { busy, failed, run } = useChange(forbidden);
  const failure = failed('assigned');
  const errors = errorsOf(failure, 'plan_id');
  const fromErrors = errorsOf(failure, 'from');
  // Archived plans are not assigned any more.
  const assignable = plans.data?.plans.filter((plan) => !plan.archived_at || plan.plan_id === affiliate.plan_id) ?? [];
  const assign = (event: Event) => {
    event.preventDefault();
    const name = plans.data?.plans.find((plan) => plan.plan_id === planId)?.name ?? planId;
    void run(
      'assigned',
      () => postJson(`${path}/plan`, { plan_id: planId, ...(from && from !== today ? { from } : {}) }),
      () => {
        onChanged();
        return from && from !== today ? `Plan “${name}” assigned from ${formatDay(from)}.` : `Plan “${name}” assigned.`;
      },
    );
  };
  return (
    <form class="assign-plan" onSubmit={assign} aria-label="Change the plan">
      {plans.error && <ErrorNote error={plans.error} />}
      <Field id="affiliate-plan" label="Plan" errors={errors}>
        <select {...fieldProps('affiliate-plan', errors)} name="plan_id" value={planId} onChange={(e) => setPlanId(e.currentTarget.value)}>
          <option value="" disabled>
            {plans.data ? (assignable.length ? 'choose a plan…' : 'no plans yet') : 'loading plans…'}
          </option>
          {assignable.map((plan) => (
            <option key={plan.plan_id} value={plan.plan_id}>
              {/* A plan never edited reads as it always did; an edited one names its version. */}
              {plan.version > 1 ? `${plan.name} (v${plan.version})` : plan.name} — {plan.terms}
            </option>
          ))}
        </select>
      </Field>
      <Field id="affiliate-plan-from" label="From" hint="The first day of the deal (UTC). A past day only after the last approved month." errors={fromErrors}>
        <div class="inline-control">
          <input
            {...fieldProps('affiliate-plan-from', fromErrors)}
            type="date"
            name="from"
            value={from}
            required
            onInput={(e) => setFrom(e.currentTarget.value)}
          />
          <button type="submit" disabled={!planId || !from || busy !== undefined} aria-busy={busy === 'assigned'}>
            Assign plan
          </button>
        </div>
      </Field>
      <FormFailure failure={failure} fields={['plan_id', 'from']} />
    </form>
  );
}

/** The affiliate's deals, newest first: which plan version it earns under from which day. */
function DealHistory({ deals }: { deals: Affiliate['deals'] }) {
  if (deals.length === 0) return <p class="muted">No deal: the affiliate earns nothing until a plan is assigned.</p>;
  const today = isoDay(new Date());
  const current = [...deals].reverse().find((deal) => deal.from <= today);
  return (
    <TableRegion label="Deal history (scrolls)">
      <table class="deals">
        <thead>
          <tr>
            <th scope="col">From</th>
            <th scope="col">Plan and terms</th>
          </tr>
        </thead>
        <tbody>
          {[...deals].reverse().map((deal) => (
            <tr key={`${deal.from}-${deal.assigned_at}`}>
              <th scope="row">
                {formatDay(deal.from)}
                {deal === current && <Badge tone="success">in force</Badge>}
                {deal.from > today && <Badge tone="accent">upcoming</Badge>}
              </th>
              <td>
                <strong>
                  <Visible text={deal.name} />
                </strong>{' '}
                <span class="muted">version {deal.plan_version}</span>
                <div>{deal.description}</div>
                <div class="muted break">
                  assigned <When at={deal.assigned_at} />
                  {deal.assigned_by && ` by ${deal.assigned_by}`}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

function Links({ links }: { links: Affiliate['links'] }) {
  if (links.length === 0) return <p class="muted">No tracking links.</p>;
  return (
    <TableRegion label="Tracking links (scrolls)">
      <table class="links">
        <thead>
          <tr>
            <th scope="col">Link</th>
            <th scope="col">Click address and landing page</th>
          </tr>
        </thead>
        <tbody>
          {links.map((link) => (
            <tr key={link.link_id}>
              <th scope="row">
                <Visible text={link.name} />
              </th>
              <td class="break">
                <code>{link.click_url}</code>
                <span class="landing">→ {link.landing_url}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

/** A tracking link for the affiliate: its landing URL must be on one of the application's site origins (the server says which). */
function NewLink({ path, onCreated }: { path: string; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [landing, setLanding] = useState('');
  const { busy, failed, run } = useChange(forbidden);
  const failure = failed('link');
  const errors = { name: errorsOf(failure, 'name'), landing: errorsOf(failure, 'landing_url') };
  const create = async (event: Event) => {
    event.preventDefault();
    const answer = await run(
      'link',
      () => postJson<ConsoleAnswer<'ConsoleCreateAffiliateLink'>>(`${path}/links`, { name, landing_url: landing }),
      ({ link }) => `Link “${link.name}” created: ${link.click_url}`,
    );
    if (answer) {
      setName('');
      setLanding('');
      onCreated();
    }
  };
  return (
    <form class="new-link" onSubmit={create} aria-label="New tracking link">
      <h3>New link</h3>
      <div class="form-row">
        <Field id="link-name" label="Name" errors={errors.name}>
          <input
            {...fieldProps('link-name', errors.name)}
            name="name"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
            required
            maxLength={100}
            autocomplete="off"
          />
        </Field>
        <Field id="link-landing" label="Landing URL" errors={errors.landing}>
          <input
            {...fieldProps('link-landing', errors.landing)}
            name="landing_url"
            type="url"
            value={landing}
            onInput={(e) => setLanding(e.currentTarget.value)}
            required
            maxLength={2048}
            placeholder="https://your-site.example/welcome"
          />
        </Field>
      </div>
      <FormFailure failure={failure} fields={['name', 'landing_url']} />
      <FormActions>
        <button type="submit" class="primary" aria-busy={busy === 'link'} disabled={busy !== undefined}>
          Create link
        </button>
      </FormActions>
    </form>
  );
}

/** The server's default (domain/postbacks.ts, whose types only the UI may import): registration and FTD. */
const defaultPostbackEvents: readonly PostbackEvent[] = ['registration', 'ftd'];
const eventPhrases: Record<PostbackEvent, string> = { registration: 'registrations', ftd: 'first deposits', cpa: 'CPAs earned', deposit: 'deposits' };
const sameEvents = (a: readonly string[] | undefined, b: readonly string[]) => (a ?? b).join() === b.join();
/** The events the affiliate chose, as a phrase ("registrations, CPAs earned and deposits"); none: "no events". */
function eventsInWords(events: readonly PostbackEvent[] | undefined): string {
  const phrases = (events ?? []).map((event) => eventPhrases[event]);
  if (phrases.length === 0) return 'no events';
  return phrases.length === 1 ? phrases[0] : `${phrases.slice(0, -1).join(', ')} and ${phrases.at(-1)}`;
}

/**
 * The affiliate's postbacks: on or off and to which host (the URL's template is the affiliate's), the delivery log
 * (with the URL each attempt called, its secrets masked by the sender),
 * and for admins and marketers a new URL, off, or a new signing secret (shown once).
 */
function Postbacks({ path, canChange, onChanged }: { path: string; canChange: boolean; onChanged: () => void }) {
  const postbacks = useApi(() => getJson<ConsoleAnswer<'ConsoleAffiliatePostbacks'>>(`${path}/postbacks`), path);
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState<string | undefined>();
  const { busy, failed, run } = useChange(forbidden);
  const failure = failed();
  const errors = errorsOf(failure, 'postback_url');
  const change = async (name: string, body: Record<string, string>, done: string) => {
    setSecret(undefined);
    const answer = await run(
      name,
      () => postJson<ConsoleAnswer<'ConsoleUpdateAffiliatePostbacks'>>(`${path}/postbacks`, body),
      () => done,
    );
    if (!answer) return;
    if (answer.signing_secret) setSecret(answer.signing_secret);
    if (name === 'set') setUrl('');
    postbacks.reload();
    onChanged();
  };
  const view = postbacks.data;
  return (
    <Card title="Postbacks">
      {postbacks.error && <ErrorNote error={postbacks.error} />}
      {!view && postbacks.loading && <Loading what="the postbacks" />}
      {view && (
        <>
          <p>
            {view.postback_url_set ? (
              <>
                {sameEvents(view.postback_events, defaultPostbackEvents)
                  ? 'On: each registration and first deposit of its players is sent to '
                  : `On: ${eventsInWords(view.postback_events)} of its players are sent to `}
                <code>{view.postback_host ?? 'its URL'}</code>, signed.
              </>
            ) : (
              'Off: no postbacks are sent.'
            )}
          </p>
          {secret && <ShownOnce label="Signing secret" value={secret} />}
          {canChange && (
            <>
              <form
                class="postback-url"
                onSubmit={(event) => {
                  event.preventDefault();
                  void change('set', { action: 'set', postback_url: url.trim() }, 'Postback URL saved.');
                }}
                aria-label="Set the postback URL"
              >
                <Field
                  id="postback-url"
                  label={view.postback_url_set ? 'New postback URL' : 'Postback URL'}
                  errors={errors}
                  hint={
                    <>
                      https only. Placeholders: <code>{'{event} {sub_id} {link_id} {affiliate_id} {amount} {currency} {payout} {event_id} {date}'}</code>. The
                      first URL makes a signing secret, shown once.
                    </>
                  }
                >
                  <div class="inline-control">
                    <input
                      {...fieldProps('postback-url', errors, true)}
                      name="postback_url"
                      type="url"
                      value={url}
                      onInput={(e) => setUrl(e.currentTarget.value)}
                      required
                      maxLength={1000}
                      placeholder="https://tracker.example/pb?event={event}&sub={sub_id}&id={event_id}"
                    />
                    <button type="submit" class="primary" aria-busy={busy === 'set'} disabled={busy !== undefined}>
                      Save URL
                    </button>
                  </div>
                </Field>
              </form>
              {view.postback_url_set && (
                <div class="cluster postback-actions">
                  <button
                    type="button"
                    onClick={() => void change('off', { action: 'off' }, 'Postbacks are off.')}
                    aria-busy={busy === 'off'}
                    disabled={busy !== undefined}
                  >
                    Turn postbacks off
                  </button>
                  <ConfirmButton
                    label="New signing secret…"
                    title="Make a new signing secret?"
                    confirmLabel="Yes, make a new secret"
                    class=""
                    onConfirm={() => void change('rotate', { action: 'rotate_secret' }, 'A new signing secret was made.')}
                    busy={busy === 'rotate'}
                    disabled={busy !== undefined}
                  >
                    <p>Postbacks are signed with the new secret from the next minute: the affiliate's tracker must check them with it from then on.</p>
                  </ConfirmButton>
                </div>
              )}
              <FormFailure failure={failure} fields={['postback_url']} />
            </>
          )}
          <h3>Deliveries</h3>
          {view.deliveries.length === 0 ? (
            <p class="muted">No postbacks sent yet.</p>
          ) : (
            <TableRegion label="Postback deliveries (scrolls)">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Last attempt</th>
                    <th scope="col">Event</th>
                    <th scope="col">Outcome</th>
                    <th scope="col" class="num">
                      Attempts
                    </th>
                    <th scope="col">Answer</th>
                    <th scope="col">URL called</th>
                  </tr>
                </thead>
                <tbody>
                  {view.deliveries.map((entry) => (
                    <tr key={`${entry.event_id}-${entry.at}`}>
                      <td class="nowrap">
                        <When at={entry.at} />
                      </td>
                      <td>
                        {entry.event} <small class="muted break">{entry.event_id}</small>
                      </td>
                      <td>
                        <StatusBadge status={entry.outcome} />
                      </td>
                      <td class="num">{formatCount(entry.attempts)}</td>
                      <td class="break">{entry.status_code ?? entry.error ?? '—'}</td>
                      <td class="break">{entry.url ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
          )}
        </>
      )}
    </Card>
  );
}

const DAY = 86_400_000;

function defaultRange(): { from: string; to: string } {
  const today = new Date();
  return { from: isoDay(new Date(today.getTime() - 29 * DAY)), to: isoDay(today) };
}

/** The period of the same length just before `range`, for the KPI cards' change; none for a range the server would refuse. */
export function previousOf(range: { from: string; to: string }): { from: string; to: string } | undefined {
  const from = Date.parse(`${range.from}T00:00:00Z`);
  const to = Date.parse(`${range.to}T00:00:00Z`);
  if (Number.isNaN(from) || Number.isNaN(to) || to < from) return undefined;
  return { from: isoDay(new Date(from - (to - from) - DAY)), to: isoDay(new Date(from - DAY)) };
}

function ReportAndTrace({ path }: { path: string }) {
  const [typed, setTyped] = useState(defaultRange);
  const [range, setRange] = useState(typed);
  const key = `${range.from}\n${range.to}`;
  const report = useApi(() => getJson<Report>(`${path}/report`, range), key);
  const before = previousOf(range);
  // The previous period only moves the KPI cards' change: without it the cards show the figures alone.
  const previous = useApi(() => getJson<Report>(`${path}/report`, before), `${path}\n${key}`, before !== undefined);
  const apply = (event: Event) => {
    event.preventDefault();
    setRange(typed);
  };
  const csv = apiPath(`${path}/report.csv`, range);
  return (
    <>
      <Card
        title="Report"
        actions={
          report.data && (
            <a class="button small" href={csv} download>
              Download CSV
            </a>
          )
        }
      >
        <form class="report-range" onSubmit={apply} aria-label="Report period">
          <div class="field">
            <label for="report-from">From</label>
            <input id="report-from" type="date" name="from" value={typed.from} onInput={(e) => setTyped({ ...typed, from: e.currentTarget.value })} required />
          </div>
          <div class="field">
            <label for="report-to">To</label>
            <input id="report-to" type="date" name="to" value={typed.to} onInput={(e) => setTyped({ ...typed, to: e.currentTarget.value })} required />
          </div>
          <button type="submit">Show</button>
        </form>
        {report.error && <ErrorNote error={report.error} />}
        {!report.data && report.loading && <Loading what="the report" />}
        {report.data && <ReportView report={report.data} previous={previous.data} />}
      </Card>
      <Trace path={path} range={range} />
    </>
  );
}

const moneyColumns = [
  { key: 'deposits', label: 'Deposits' },
  { key: 'withdrawals', label: 'Withdrawals' },
  { key: 'ngr', label: 'NGR' },
  { key: 'cpa', label: 'CPA' },
  { key: 'revshare', label: 'RevShare' },
  { key: 'commission', label: 'Commission' },
] as const;

export { figure };

const decimal = (amount: string) => Number(amount) || 0;

function ReportView({ report, previous }: { report: Report; previous: Report | undefined }) {
  const t = report.totals;
  const p = previous?.totals;
  const currency = report.currency;
  const kpis: Kpi[] = [
    { label: 'Clicks', value: formatCount(t.clicks), current: t.clicks, previous: p?.clicks, series: report.days.map((d) => d.clicks) },
    {
      label: 'Registrations',
      value: formatCount(t.registrations),
      current: t.registrations,
      previous: p?.registrations,
      series: report.days.map((d) => d.registrations),
    },
    { label: 'FTDs', value: formatCount(t.ftds), current: t.ftds, previous: p?.ftds, series: report.days.map((d) => d.ftds) },
    {
      label: 'Qualified FTDs',
      value: formatCount(t.qualified_ftds),
      current: t.qualified_ftds,
      previous: p?.qualified_ftds,
      series: report.days.map((d) => d.qualified_ftds),
    },
    {
      label: 'NGR',
      value: figure(t.ngr, currency),
      unit: currency,
      current: decimal(t.ngr),
      previous: p && decimal(p.ngr),
      series: report.days.map((d) => decimal(d.ngr)),
    },
    {
      label: 'Commission',
      value: figure(t.commission, currency),
      unit: currency,
      current: decimal(t.commission),
      previous: p && decimal(p.commission),
      series: report.days.map((d) => decimal(d.commission)),
      key: true,
    },
  ];
  const days = useMemo(() => report.days.map((d) => d.date), [report]);
  const series = useMemo<ChartSeries[]>(
    () => [
      { label: 'Clicks', values: report.days.map((d) => d.clicks) },
      { label: 'Registrations', values: report.days.map((d) => d.registrations) },
      { label: 'FTDs', values: report.days.map((d) => d.ftds) },
    ],
    [report],
  );
  return (
    <div class="affiliate-report">
      <p class="muted report-period">
        {formatDay(report.from)} – {formatDay(report.to)}
        {previous ? `, against ${formatDay(previous.from)} – ${formatDay(previous.to)}` : ''}. Commission <Money amount={t.commission} currency={currency} />.
      </p>
      <p class="muted report-rates">
        Registrations per click: <strong>{formatRate(t.registration_rate)}</strong>. FTDs per registration: <strong>{formatRate(t.ftd_rate)}</strong>.
      </p>
      <KpiCards label="Period totals" kpis={kpis} />
      <TimeChart title="Clicks, registrations and FTDs by day" days={days} series={series} />
      <TableRegion label="Report by day (scrolls)" class="report-wrap">
        <table class="report">
          <caption>By day (UTC); amounts in {currency}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col" class="num">
                Clicks
              </th>
              <th scope="col" class="num">
                Registrations
              </th>
              <th scope="col" class="num">
                FTDs
              </th>
              <th scope="col" class="num">
                Qualified
              </th>
              {moneyColumns.map((column) => (
                <th key={column.key} scope="col" class="num">
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {report.days.map((day) => (
              <tr key={day.date}>
                <th scope="row" class="nowrap">
                  {formatDay(day.date)}
                </th>
                <td class="num">{formatCount(day.clicks)}</td>
                <td class="num">{formatCount(day.registrations)}</td>
                <td class="num">{formatCount(day.ftds)}</td>
                <td class="num">{formatCount(day.qualified_ftds)}</td>
                {moneyColumns.map((column) => (
                  <td key={column.key} class="num" title={`${day[column.key]} ${currency}`}>
                    {figure(day[column.key], currency)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td class="num">{formatCount(t.clicks)}</td>
              <td class="num">{formatCount(t.registrations)}</td>
              <td class="num">{formatCount(t.ftds)}</td>
              <td class="num">{formatCount(t.qualified_ftds)}</td>
              {moneyColumns.map((column) => (
                <td key={column.key} class="num" title={`${t[column.key]} ${currency}`}>
                  {figure(t[column.key], currency)}
                </td>
              ))}
            </tr>
          </tfoot>
        </table>
      </TableRegion>
      {report.links.length > 0 && <ByLink report={report} />}
      {(report.sub_ids ?? []).length > 0 && <BySubId report={report} />}
    </div>
  );
}

/** The period per link and sub-id (at most 100 per link and day, the rest under "Other sub-ids"): the affiliate's traffic sources. */
function BySubId({ report }: { report: Report }) {
  const currency = report.currency;
  return (
    <>
      <h3 class="by-link">By sub-id</h3>
      <TableRegion label="Figures by sub-id (scrolls)">
        <table class="report-links">
          <caption>The period by link and sub-id; amounts in {currency}</caption>
          <thead>
            <tr>
              <th scope="col">Sub-id and link</th>
              {['Clicks', 'Registrations', 'FTDs', 'Registrations per click', 'FTDs per registration', 'Commission'].map((label) => (
                <th key={label} scope="col" class="num">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {(report.sub_ids ?? []).map((row) => (
              <tr key={`${row.link_id}\u0000${row.sub_id}`}>
                <th scope="row">
                  {row.sub_id.startsWith('(') ? <span class="muted">{subIdLabel(row.sub_id)}</span> : <Visible text={row.sub_id} />}
                  <span class="sub-link">{row.name ? <Visible text={row.name} /> : <LinkId id={row.link_id} />}</span>
                </th>
                <td class="num">{formatCount(row.clicks)}</td>
                <td class="num">{formatCount(row.registrations)}</td>
                <td class="num">{formatCount(row.ftds)}</td>
                <td class="num">{formatRate(row.registration_rate)}</td>
                <td class="num">{formatRate(row.ftd_rate)}</td>
                <td class="num">{figure(row.commission, currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
    </>
  );
}

/** The period's figures per tracking link: which of the affiliate's placements bring players. */
function ByLink({ report }: { report: Report }) {
  const currency = report.currency;
  return (
    <>
      <h3 class="by-link">By link</h3>
      <TableRegion label="Figures by link (scrolls)">
        <table class="report-links">
          <caption>The period by link; amounts in {currency}</caption>
          <thead>
            <tr>
              <th scope="col">Link</th>
              {['Clicks', 'Registrations', 'FTDs', 'Qualified', 'NGR', 'Commission'].map((label) => (
                <th key={label} scope="col" class="num">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {report.links.map((link) => (
              <tr key={link.link_id}>
                <th scope="row">{link.name ? <Visible text={link.name} /> : <LinkId id={link.link_id} />}</th>
                <td class="num">{formatCount(link.clicks)}</td>
                <td class="num">{formatCount(link.registrations)}</td>
                <td class="num">{formatCount(link.ftds)}</td>
                <td class="num">{formatCount(link.qualified_ftds)}</td>
                <td class="num">{figure(link.ngr, currency)}</td>
                <td class="num">{figure(link.commission, currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
    </>
  );
}

/** A link's id, or that there was none ("-": attributed without a tracking link). */
const LinkId = ({ id }: { id: string }) => (id === '-' ? <span class="muted">no link</span> : <code>{id}</code>);

const playerLink = (profileId: string) => (
  <a href={`/console/players/${encodeURIComponent(profileId)}`}>
    <Visible text={profileId} />
  </a>
);

/** A money event's amount as stored: money when it reads as money, the value as it is otherwise. */
function eventAmount(amount: unknown, currency: unknown) {
  if (amount === undefined) return '';
  const text = String(amount);
  return typeof currency === 'string' && currency ? <Money amount={text} currency={currency} /> : text;
}

function Trace({ path, range }: { path: string; range: { from: string; to: string } }) {
  const [cursor, setCursor] = useState<string | undefined>();
  const key = `${range.from}\n${range.to}`;
  const [forKey, setForKey] = useState(key);
  if (forKey !== key) {
    setForKey(key);
    setCursor(undefined);
  }
  const trace = useApi(() => getJson<ConsoleAnswer<'ConsoleAffiliateTrace'>>(`${path}/trace`, { ...range, cursor }), `${key}\n${cursor ?? ''}`);
  const data = trace.data;
  return (
    <Card title="Behind the commission">
      {trace.error && <ErrorNote error={trace.error} />}
      {!data && trace.loading && <Loading what="the trace" />}
      {data && (
        <div class="trace">
          <div class="grid-wide">
            <div>
              <h3>First deposits ({data.ftds.length})</h3>
              {data.ftds.length === 0 ? (
                <p class="muted">None in the period.</p>
              ) : (
                <TableRegion label="First deposits (scrolls)">
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">Day</th>
                        <th scope="col">Player</th>
                        <th scope="col" class="num">
                          Deposit
                        </th>
                        <th scope="col">CPA</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.ftds.map((ftd) => (
                        <tr key={ftd.insert_id}>
                          <td class="nowrap">{formatDay(ftd.day)}</td>
                          <td class="break">{playerLink(ftd.profile_id)}</td>
                          <td class="num">
                            <Money amount={ftd.amount} currency={data.currency} />
                          </td>
                          <td>{ftd.qualified ? 'qualified (a CPA line)' : 'below the plan’s minimum'}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableRegion>
              )}
            </div>
            <div>
              <h3>Registrations ({data.registrations.length})</h3>
              {data.registrations.length === 0 ? (
                <p class="muted">None in the period.</p>
              ) : (
                <TableRegion label="Registrations (scrolls)">
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">Day</th>
                        <th scope="col">Player</th>
                        <th scope="col">Link</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.registrations.map((row) => (
                        <tr key={row.profile_id}>
                          <td class="nowrap">{formatDay(row.day)}</td>
                          <td class="break">{playerLink(row.profile_id)}</td>
                          <td class="break">
                            <LinkId id={row.link_id} />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableRegion>
              )}
            </div>
          </div>
          <h3>Players and their money events</h3>
          {data.players.length === 0 ? (
            <p class="muted">No players attributed by the end of the period.</p>
          ) : (
            <TableRegion label="Players and their money events (scrolls)">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Player</th>
                    <th scope="col">Money events in the period</th>
                  </tr>
                </thead>
                <tbody>
                  {data.players.map((player) => (
                    <tr key={player.profile_id}>
                      <th scope="row" class="break">
                        {playerLink(player.profile_id)}
                      </th>
                      <td>
                        {player.events.length === 0 ? (
                          <span class="muted">none</span>
                        ) : (
                          <ul class="money-events">
                            {player.events.map((event) => (
                              <li key={event.urm_insert_id}>
                                <When at={event.urm_date_time} /> <code>{event.event}</code> <span class="muted">{event.kind}</span>{' '}
                                {eventAmount(event.amount, event.currency)}
                              </li>
                            ))}
                          </ul>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
          )}
          {(data.next_cursor || cursor !== undefined) && (
            <nav class="table-footer" aria-label="Trace pages">
              <span>Players on this page: {formatCount(data.players.length)}</span>
              <span class="cluster">
                {cursor !== undefined && (
                  <button type="button" class="small" onClick={() => setCursor(undefined)}>
                    First page
                  </button>
                )}
                {data.next_cursor && (
                  <button type="button" class="small" onClick={() => setCursor(data.next_cursor!)}>
                    Next
                  </button>
                )}
              </span>
            </nav>
          )}
        </div>
      )}
    </Card>
  );
}
