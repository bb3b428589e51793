/**
 * A journey's or a broadcast's results (GET /console/api/results/{kind}/{id}):
 * the headline rates, the money its recipients made within the window against
 * its holdout (per 1,000 players, and the uplift), a chart by day, each step's
 * figures, and what every figure means. Journey and broadcast pages link here.
 */
import { useMemo } from 'preact/hooks';
import type { ConsoleAnswer } from '../../answers';
import { DataTable, type Column } from '../../../ui/design/data-table';
import { KpiCards, type Kpi } from '../../../ui/design/kpi';
import { Card, PageHeader, TableRegion } from '../../../ui/design/page';
import { type ChartSeries, TimeChart } from '../../../ui/design/time-chart';
import { Visible } from '../../../ui/design/value';
import { figure, formatCount } from '../../../ui/format';
import { getJson } from '../api';
import { ErrorNote } from '../components';
import { notSentWords } from '../not-sent';
import { useApi } from '../use-api';

type Results = ConsoleAnswer<'ConsoleCampaignResults'>['results'];
type Step = Results['steps'][number];

const percent = new Intl.NumberFormat('en-GB', { style: 'percent', maximumFractionDigits: 1 });
const rate = (part: number, whole: number) => (whole > 0 ? percent.format(part / whole) : '–');
const people = (n: number) => `${formatCount(n)} ${n === 1 ? 'recipient' : 'recipients'}`;
const stepName = (step: string) => (step === '-' ? 'Entry' : step);

export function ResultsPage({ kind, id }: { kind: string; id: string }) {
  const results = useApi(
    () => getJson<ConsoleAnswer<'ConsoleCampaignResults'>>(`/results/${encodeURIComponent(kind)}/${encodeURIComponent(id)}`),
    `${kind}/${id}`,
  );
  const noun = kind === 'broadcast' ? 'Broadcast' : 'Journey';
  const listPath = kind === 'broadcast' ? '/console/broadcasts' : '/console/journeys';
  const trail = [{ label: `${noun}s`, href: listPath }, { label: <Visible text={id} />, href: `${listPath}/${encodeURIComponent(id)}` }, { label: 'Results' }];
  const data = results.data?.results;
  return (
    <>
      <PageHeader
        trail={trail}
        title={
          <>
            Results: <Visible text={id} />
          </>
        }
        subtitle={`${noun} results: what it sent and what its players did, counted as the events arrive.`}
      />
      {results.error && <ErrorNote error={results.error} />}
      {!data && !results.error && (
        <p class="loading" aria-busy="true">
          Loading the results…
        </p>
      )}
      {data && <ResultsView results={data} />}
    </>
  );
}

function ResultsView({ results }: { results: Results }) {
  const { totals, money } = results;
  const kpis: Kpi[] = [
    { label: 'Recipients', value: formatCount(totals.sent_unique), note: `${formatCount(totals.sent)} messages sent`, id: 'kpi-recipients', key: true },
    {
      label: 'Delivered',
      value: rate(totals.delivered, totals.sent),
      note: `${formatCount(totals.delivered)} of ${formatCount(totals.sent)} sent`,
      id: 'kpi-delivered',
    },
    {
      label: 'Opened',
      value: rate(totals.opened_unique, totals.sent_unique),
      note: `${people(totals.opened_unique)} opened`,
      id: 'kpi-opened',
    },
    {
      label: 'Clicked',
      value: rate(totals.clicked_unique, totals.sent_unique),
      note: `${people(totals.clicked_unique)} clicked`,
      id: 'kpi-clicked',
    },
    {
      label: `Deposited within ${money.window_days} days`,
      value: rate(money.recipients.depositors, money.recipients.players),
      note: money.holdout.players > 0 ? `holdout: ${rate(money.holdout.depositors, money.holdout.players)}` : 'no holdout',
      id: 'kpi-depositors',
    },
  ];
  return (
    <>
      <KpiCards label="Headline figures" kpis={kpis} />
      <MoneyCard money={money} />
      <DaysCard days={results.days} />
      <StepsCard steps={results.steps} totals={totals} />
      <NotSentCard byReason={totals.suppressed_by_reason} />
      <Definitions window={money.window_days} />
    </>
  );
}

function MoneyCard({ money }: { money: Results['money'] }) {
  const { currency, recipients, holdout, uplift } = money;
  const rows: { label: string; recipients: string; holdout: string; uplift?: string }[] = [
    { label: 'Players', recipients: formatCount(recipients.players), holdout: formatCount(holdout.players) },
    { label: 'Depositors', recipients: formatCount(recipients.depositors), holdout: formatCount(holdout.depositors) },
    { label: 'Depositors per 1,000', recipients: recipients.per_1000.depositors, holdout: holdout.per_1000.depositors, uplift: uplift?.depositors },
    { label: `Deposits (${currency})`, recipients: figure(recipients.deposits, currency), holdout: figure(holdout.deposits, currency) },
    {
      label: `Deposits per 1,000 (${currency})`,
      recipients: figure(recipients.per_1000.deposits, currency),
      holdout: figure(holdout.per_1000.deposits, currency),
      uplift: uplift && figure(uplift.deposits, currency),
    },
    { label: `NGR (${currency})`, recipients: figure(recipients.ngr, currency), holdout: figure(holdout.ngr, currency) },
    {
      label: `NGR per 1,000 (${currency})`,
      recipients: figure(recipients.per_1000.ngr, currency),
      holdout: figure(holdout.per_1000.ngr, currency),
      uplift: uplift && figure(uplift.ngr, currency),
    },
  ];
  return (
    <Card title={`Money within ${money.window_days} days of the send`} id="money">
      <p class="muted results-note">
        {uplift
          ? `Recipients against the holdout, per 1,000 players of each group. Uplift is the recipients' figure minus the holdout's.`
          : 'No holdout yet: add a holdout to a journey split (or a broadcast) to measure the uplift.'}
      </p>
      <TableRegion label="Money of recipients and holdout">
        <table class="results-money">
          <thead>
            <tr>
              <th scope="col">Figure</th>
              <th scope="col" class="num">
                Recipients
              </th>
              <th scope="col" class="num">
                Holdout
              </th>
              <th scope="col" class="num">
                Uplift
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                <td class="num">{row.recipients}</td>
                <td class="num">{row.holdout}</td>
                <td class={row.uplift?.startsWith('-') ? 'num down' : 'num'}>{row.uplift ?? '–'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
    </Card>
  );
}

/** A short campaign's days, led by zero days to two weeks: a chart of one or two days has no axis to read. */
const MIN_CHART_DAYS = 14;
function padded(days: Results['days']): Results['days'] {
  if (days.length === 0 || days.length >= MIN_CHART_DAYS) return days;
  const first = Date.parse(`${days[0].day}T00:00:00Z`);
  const lead = Array.from({ length: MIN_CHART_DAYS - days.length }, (_, i) => {
    const day = new Date(first - (MIN_CHART_DAYS - days.length - i) * 86_400_000).toISOString().slice(0, 10);
    return { day, sent: 0, delivered: 0, opened: 0, clicked: 0 };
  });
  return [...lead, ...days];
}

function DaysCard({ days: counted }: { days: Results['days'] }) {
  const days = useMemo(() => padded(counted), [counted]);
  const dates = useMemo(() => days.map((d) => d.day), [days]);
  const series = useMemo<ChartSeries[]>(
    () => [
      { label: 'Sent', values: days.map((d) => d.sent) },
      { label: 'Delivered', values: days.map((d) => d.delivered) },
      { label: 'Opened', values: days.map((d) => d.opened) },
      { label: 'Clicked', values: days.map((d) => d.clicked) },
    ],
    [days],
  );
  return (
    <Card title="By day" id="days">
      {days.length === 0 ? (
        <p class="muted">Nothing sent yet.</p>
      ) : (
        <TimeChart title="Sent, delivered, opened and clicked by day (UTC)" days={dates} series={series} />
      )}
    </Card>
  );
}

function StepsCard({ steps, totals }: { steps: Step[]; totals: Results['totals'] }) {
  const count = (pick: (step: Results['totals']) => number) => (row: Results['totals']) => formatCount(pick(row));
  const columns: Column<Step>[] = [
    { id: 'step', header: 'Step', value: (s) => stepName(s.step), rowHeader: true, required: true },
    { id: 'entered', header: 'Entered', value: (s) => s.entered, cell: count((s) => s.entered), numeric: true },
    { id: 'holdout', header: 'Holdout', value: (s) => s.holdout, cell: count((s) => s.holdout), numeric: true, hidden: totals.holdout === 0 },
    { id: 'sent', header: 'Sent', value: (s) => s.sent, cell: count((s) => s.sent), numeric: true },
    { id: 'delivered', header: 'Delivered', value: (s) => s.delivered, cell: count((s) => s.delivered), numeric: true },
    {
      id: 'opened',
      header: 'Opened (unique)',
      value: (s) => s.opened_unique,
      cell: (s) => `${formatCount(s.opened)} (${formatCount(s.opened_unique)})`,
      numeric: true,
    },
    {
      id: 'clicked',
      header: 'Clicked (unique)',
      value: (s) => s.clicked_unique,
      cell: (s) => `${formatCount(s.clicked)} (${formatCount(s.clicked_unique)})`,
      numeric: true,
    },
    { id: 'suppressed', header: 'Not sent', value: (s) => s.suppressed, cell: count((s) => s.suppressed), numeric: true },
    { id: 'failed', header: 'Failed', value: (s) => s.failed, cell: count((s) => s.failed), numeric: true },
    { id: 'bounced', header: 'Bounced', value: (s) => s.bounced, cell: count((s) => s.bounced), numeric: true },
    { id: 'complained', header: 'Complained', value: (s) => s.complained, cell: count((s) => s.complained), numeric: true },
    { id: 'unsubscribed', header: 'Unsubscribed', value: (s) => s.unsubscribed, cell: count((s) => s.unsubscribed), numeric: true },
  ];
  const footer = Object.fromEntries(
    columns.map((column) => [column.id, column.id === 'step' ? 'Total' : (column.cell?.({ ...totals, step: 'total' }) ?? '')]),
  ) as Record<string, string>;
  return (
    <Card title="By step" id="steps">
      <DataTable label="Figures by step" rows={steps} columns={columns} rowId={(s) => s.step} empty="No step has counted anything yet." footer={footer} />
    </Card>
  );
}

function NotSentCard({ byReason }: { byReason: Results['totals']['suppressed_by_reason'] }) {
  const reasons = Object.entries(byReason)
    .filter(([, n]) => (n ?? 0) > 0)
    .sort(([a, x], [b, y]) => (y ?? 0) - (x ?? 0) || a.localeCompare(b));
  return (
    <Card title="Not sent, by reason" id="not-sent">
      {reasons.length === 0 ? (
        <p class="muted">None: the send gate refused or deferred nothing.</p>
      ) : (
        <ul class="not-sent">
          {reasons.map(([reason, n]) => (
            <li key={reason}>
              <span>{notSentWords[reason] ?? reason}</span>
              <span class="num segment-size">{formatCount(n ?? 0)}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function Definitions({ window }: { window: number }) {
  const terms: [string, string][] = [
    ['Entered', 'Players who entered the journey (a broadcast counts its audience on its own page).'],
    ['Sent', 'Messages handed to SES or the push service; Recipients counts each player once.'],
    ['Not sent', 'Messages the send gate refused or deferred, by its reason (a deferred message is sent later and counted as sent then).'],
    ['Failed', 'Messages that could not be made: a template that did not render, no channel, a webhook that failed.'],
    ['Delivered, bounced, complained', 'What the receiving mail server told SES.'],
    [
      'Opened',
      'The open pixel loaded. Mail apps that block images never count; Apple Mail Privacy Protection loads every image, so it counts opens nobody made.',
    ],
    ['Clicked', 'A link in the mail was followed. The unique count is each recipient once per step.'],
    ['Unsubscribed', "Players who unsubscribed through this campaign's link."],
    ['Holdout', 'Players a split held out: they get nothing, so their money shows what would have happened anyway.'],
    [`Deposited within ${window} days`, `Players with a deposit within ${window} days after their latest send (for the holdout: after being held out).`],
    ['NGR', 'Bets minus wins minus bonuses, in the main currency, within the same window.'],
    ['Per 1,000', "A group's figure divided by its players, times 1,000: groups of any size compare."],
    ['Uplift', "The recipients' per-1,000 figure minus the holdout's: what the campaign added."],
  ];
  return (
    <Card title="What the figures mean" id="definitions">
      <dl class="pairs results-definitions">
        {terms.map(([term, meaning]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{meaning}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
