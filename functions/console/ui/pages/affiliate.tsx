/**
 * One affiliate: who, status and plan (admins and marketers approve, suspend
 * and assign a plan), its links (they add one), its postbacks (they set the
 * URL, turn them off, make a new signing secret) with the delivery log, the report for a date range (chart, the same
 * figures by day in a table, CSV download) and the trace behind the
 * commission (players linking to their page, money events).
 */
import { useState } from 'preact/hooks';
import type { ConsoleAnswer } from '../../answers';
import { Result, ShownOnce, useAction } from '../actions';
import { apiPath, getJson, postJson } from '../api';
import { DayChart } from '../chart';
import { ErrorNote, Loading, Pager, Section, When } from '../components';
import { formatCount, formatDay, formatMoney, isoDay } from '../format';
import { useSession } from '../session';
import { useApi, type Loaded } from '../use-api';
import { StatusBadge } from './affiliates';

/** How a refused change to an affiliate reads. */
const affiliateChange = { forbidden: 'Your role may not change affiliates.' };

export function AffiliatePage({ id }: { id: string }) {
  const { role } = useSession();
  const path = `/affiliates/${encodeURIComponent(id)}`;
  const affiliate = useApi(() => getJson<ConsoleAnswer<'ConsoleGetAffiliate'>>(path), id);
  // The plans to assign, read in parallel with the affiliate rather than once it is shown; a viewer assigns none.
  const plans = useApi(() => getJson<ConsoleAnswer<'ConsoleListPlans'>>('/plans'), 'plans', role !== 'viewer');
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
              {role !== 'viewer' && <Decisions affiliate={a} plans={plans} path={path} onChanged={affiliate.reload} />}
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
              {role !== 'viewer' && <NewLink path={path} onCreated={affiliate.reload} />}
              {Object.keys(a.contacts).length > 0 && (
                <>
                  <h3>Contacts</h3>
                  <dl>
                    {Object.entries(a.contacts).flatMap(([name, value]) => [
                      <dt key={`${name}-t`}>{name.replace(/_/g, ' ')}</dt>,
                      <dd key={`${name}-d`}>{value}</dd>,
                    ])}
                  </dl>
                </>
              )}
            </Section>
          </div>
        </>
      )}
      {/* Not waiting for the affiliate: these read by its id, in parallel with it (an unknown id shows the 404 above instead). */}
      {!affiliate.error && (
        <>
          <Postbacks path={path} canChange={role !== 'viewer'} onChanged={affiliate.reload} />
          <ReportAndTrace path={path} />
        </>
      )}
    </>
  );
}

function Decisions({
  affiliate,
  plans,
  path,
  onChanged,
}: {
  affiliate: ConsoleAnswer<'ConsoleGetAffiliate'>['affiliate'];
  plans: Loaded<ConsoleAnswer<'ConsoleListPlans'>>;
  path: string;
  onChanged: () => void;
}) {
  const [planId, setPlanId] = useState(affiliate.plan_id ?? '');
  const { busy, outcome, run } = useAction(affiliateChange);
  const changed = (text: string) => () => {
    onChanged();
    return text;
  };
  const setStatus = (status: 'approved' | 'suspended') =>
    run(status, () => postJson(`${path}/status`, { status }), changed(status === 'approved' ? 'Approved.' : 'Suspended.'));
  const assign = (event: Event) => {
    event.preventDefault();
    const name = plans.data?.plans.find((plan) => plan.plan_id === planId)?.name ?? planId;
    void run('assigned', () => postJson(`${path}/plan`, { plan_id: planId }), changed(`Plan “${name}” assigned.`));
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
      <Result outcome={outcome} />
    </div>
  );
}

/** A tracking link for the affiliate: its landing URL must be on one of the application's site origins (the server says which). */
function NewLink({ path, onCreated }: { path: string; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [landing, setLanding] = useState('');
  const { busy, outcome, run } = useAction(affiliateChange);
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
      <label for="link-name">Name</label>
      <input id="link-name" name="name" value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={100} autocomplete="off" />
      <label for="link-landing">Landing URL</label>
      <input
        id="link-landing"
        name="landing_url"
        type="url"
        value={landing}
        onInput={(e) => setLanding(e.currentTarget.value)}
        required
        maxLength={2048}
        placeholder="https://your-site.example/welcome"
      />
      <button type="submit" aria-busy={busy === 'link'} disabled={busy !== undefined}>
        Create link
      </button>
      <Result outcome={outcome} />
    </form>
  );
}

/**
 * The affiliate's postbacks: on or off and to which host (the URL's template is the affiliate's), the delivery log,
 * and for admins and marketers a new URL, off, or a new signing secret (shown once).
 */
function Postbacks({ path, canChange, onChanged }: { path: string; canChange: boolean; onChanged: () => void }) {
  const postbacks = useApi(() => getJson<ConsoleAnswer<'ConsoleAffiliatePostbacks'>>(`${path}/postbacks`), path);
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState<string | undefined>();
  const [confirmRotate, setConfirmRotate] = useState(false);
  const { busy, outcome, run } = useAction(affiliateChange);
  const change = async (name: string, body: Record<string, string>, done: string) => {
    setSecret(undefined);
    setConfirmRotate(false);
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
    <Section title="Postbacks">
      {postbacks.error && <ErrorNote error={postbacks.error} />}
      {!view && postbacks.loading && <Loading what="the postbacks" />}
      {view && (
        <>
          <p>
            {view.postback_url_set ? (
              <>
                On: each registration and first deposit of its players is sent to <code>{view.postback_host ?? 'its URL'}</code>, signed.
              </>
            ) : (
              'Off: no postbacks are sent.'
            )}
          </p>
          {secret && <ShownOnce label="Signing secret" value={secret} />}
          {canChange && (
            <>
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  void change('set', { action: 'set', postback_url: url.trim() }, 'Postback URL saved.');
                }}
                aria-label="Set the postback URL"
              >
                <label for="postback-url">{view.postback_url_set ? 'New postback URL' : 'Postback URL'}</label>
                <fieldset role="group">
                  <input
                    id="postback-url"
                    name="postback_url"
                    type="url"
                    value={url}
                    onInput={(e) => setUrl(e.currentTarget.value)}
                    required
                    maxLength={1000}
                    placeholder="https://tracker.example/pb?event={event}&sub={sub_id}&id={event_id}"
                    aria-describedby="postback-url-help"
                  />
                  <button type="submit" aria-busy={busy === 'set'} disabled={busy !== undefined}>
                    Save URL
                  </button>
                </fieldset>
                <small id="postback-url-help">
                  https only. Placeholders: {'{event} {sub_id} {link_id} {affiliate_id} {amount} {currency} {event_id} {date}'}. The first URL makes a signing
                  secret, shown once.
                </small>
              </form>
              {view.postback_url_set && (
                <div class="button-row">
                  <button
                    type="button"
                    class="secondary"
                    onClick={() => void change('off', { action: 'off' }, 'Postbacks are off.')}
                    aria-busy={busy === 'off'}
                    disabled={busy !== undefined}
                  >
                    Turn postbacks off
                  </button>
                  {confirmRotate ? (
                    <span role="group" aria-label="Confirm a new signing secret">
                      Postbacks are signed with the new secret from the next minute.{' '}
                      <button
                        type="button"
                        class="contrast"
                        onClick={() => void change('rotate', { action: 'rotate_secret' }, 'A new signing secret was made.')}
                        aria-busy={busy === 'rotate'}
                        disabled={busy !== undefined}
                      >
                        Yes, make a new secret
                      </button>{' '}
                      <button type="button" class="secondary outline" onClick={() => setConfirmRotate(false)}>
                        Cancel
                      </button>
                    </span>
                  ) : (
                    <button type="button" class="secondary outline" onClick={() => setConfirmRotate(true)} disabled={busy !== undefined}>
                      New signing secret…
                    </button>
                  )}
                </div>
              )}
              <Result outcome={outcome} />
            </>
          )}
          <h3>Deliveries</h3>
          {view.deliveries.length === 0 ? (
            <p>No postbacks sent yet.</p>
          ) : (
            <figure class="table-scroll">
              <table class="striped">
                <thead>
                  <tr>
                    <th scope="col">Last attempt</th>
                    <th scope="col">Event</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Answer</th>
                  </tr>
                </thead>
                <tbody>
                  {view.deliveries.map((entry) => (
                    <tr key={`${entry.event_id}-${entry.at}`}>
                      <td>
                        <When at={entry.at} />
                      </td>
                      <td>
                        {entry.event} <small class="muted">{entry.event_id}</small>
                      </td>
                      <td>{entry.outcome}</td>
                      <td>{formatCount(entry.attempts)}</td>
                      <td>{entry.status_code ?? entry.error ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </figure>
          )}
        </>
      )}
    </Section>
  );
}

function defaultRange(): { from: string; to: string } {
  const today = new Date();
  return { from: isoDay(new Date(today.getTime() - 29 * 86_400_000)), to: isoDay(today) };
}

function ReportAndTrace({ path }: { path: string }) {
  const [typed, setTyped] = useState(defaultRange);
  const [range, setRange] = useState(typed);
  const report = useApi(() => getJson<ConsoleAnswer<'ConsoleAffiliateReport'>>(`${path}/report`, range), `${range.from}\n${range.to}`);
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

function Report({ report, csv }: { report: ConsoleAnswer<'ConsoleAffiliateReport'>; csv: string }) {
  const t = report.totals;
  return (
    <>
      <p>
        {formatDay(report.from)} – {formatDay(report.to)}: <strong>{formatMoney(t.commission, report.currency)}</strong> commission ({formatCount(t.clicks)}{' '}
        clicks, {formatCount(t.registrations)} registrations, {formatCount(t.ftds)} FTDs, {formatCount(t.qualified_ftds)} qualified).{' '}
        <a href={csv} download>
          Download CSV
        </a>
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
  const trace = useApi(() => getJson<ConsoleAnswer<'ConsoleAffiliateTrace'>>(`${path}/trace`, { ...range, cursor }), `${key}\n${cursor ?? ''}`);
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
                                <When at={event.urm_date_time} />: <code>{event.event}</code> ({event.kind}){' '}
                                {event.amount === undefined ? '' : String(event.amount)} {event.currency === undefined ? '' : String(event.currency)}
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
