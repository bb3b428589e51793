/**
 * Home, what `/console/` opens on: the application's figures (players now;
 * registrations, FTDs, deposits and NGR over the last 30 days against the 30
 * before, by day), what needs a decision now (affiliates awaiting approval,
 * records the service could not apply), the largest segments, and a way
 * straight to a player. The figures are one read of what the consumers keep
 * (GET /console/api/overview), never a count of lists.
 */
import { useMemo, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { ConsoleAnswer } from '../../answers';
import { Badge } from '../../../ui/design/badge';
import { KpiCards, type Kpi } from '../../../ui/design/kpi';
import { Card, PageHeader } from '../../../ui/design/page';
import { type ChartSeries, TimeChart } from '../../../ui/design/time-chart';
import { Visible, When } from '../../../ui/design/value';
import { figure, formatCount, formatDay } from '../../../ui/format';
import { ApiError, getJson } from '../api';
import { ErrorNote } from '../components';
import { useSession } from '../session';
import { notSentWords } from '../not-sent';
import { useApi } from '../use-api';
import { PlayerSearch, playerPath } from './players';

/** At most this many of each are read for a count: more reads "100+". */
const COUNT_PAGE = 100;
const counted = (items: readonly unknown[], next: string | null | undefined) => `${items.length}${next ? '+' : ''}`;
/** How many of the newest rejections the page shows. */
const NEWEST = 3;
/** The period of the figures, against as many days before. */
const DAYS = 30;
/** How many segments the card lists, largest first. */
const LARGEST = 5;

type Overview = ConsoleAnswer<'ConsoleOverview'>;

/** A segment as GET /console/api/segments lists it (the segments' own page owns the route). */
export interface SegmentSummary {
  segment_id: string;
  name: string;
  size: number;
  status: string;
}

const decimal = (amount: string) => Number(amount) || 0;

export function HomePage() {
  const session = useSession();
  const { route } = useLocation();
  const [id, setId] = useState('');
  const overview = useApi(() => getJson<Overview>('/overview', { days: String(DAYS) }), 'overview');
  const pending = useApi(() => getJson<ConsoleAnswer<'ConsoleListAffiliates'>>('/affiliates', { status: 'pending', limit: COUNT_PAGE }), 'pending');
  const approved = useApi(() => getJson<ConsoleAnswer<'ConsoleListAffiliates'>>('/affiliates', { status: 'approved', limit: COUNT_PAGE }), 'approved');
  const rejections = useApi(() => getJson<ConsoleAnswer<'ConsoleListRejections'>>('/rejections', { limit: COUNT_PAGE }), 'rejections');
  // Segments may not be there (404): the card shows only what the route answers.
  const segments = useApi(() => getJson<{ segments?: SegmentSummary[] }>('/segments').catch(quietWhenMissing), 'segments');

  const kpis: Kpi[] = [];
  if (overview.data) {
    kpis.push({
      label: 'Players',
      value: formatCount(overview.data.players),
      note: `${formatCount(overview.data.totals.registrations)} new in ${DAYS} days`,
      id: 'kpi-players',
      key: true,
    });
  }
  if (pending.data)
    kpis.push({
      label: 'Affiliates awaiting approval',
      value: counted(pending.data.affiliates, pending.data.next_cursor),
      key: pending.data.affiliates.length > 0,
    });
  if (approved.data) kpis.push({ label: 'Approved affiliates', value: counted(approved.data.affiliates, approved.data.next_cursor) });
  if (rejections.data)
    kpis.push({
      label: 'Rejected records (14 days)',
      value: counted(rejections.data.rejections, rejections.data.next_cursor),
      key: rejections.data.rejections.length > 0,
    });
  const newest = rejections.data?.rejections.slice(0, NEWEST) ?? [];
  // Segments are an extra: their failure is not the page's.
  const error = overview.error ?? pending.error ?? approved.error ?? rejections.error;
  const waiting = pending.data?.affiliates.length ?? 0;
  const largest = [...(segments.data?.segments ?? [])].sort((a, b) => b.size - a.size).slice(0, LARGEST);

  const open = (event: Event) => {
    event.preventDefault();
    const text = id.trim();
    route(text ? `/console/players?prefix=${encodeURIComponent(text)}` : '/console/players');
  };

  return (
    <>
      <PageHeader title="Home" subtitle={`${session.app.name}: what needs you today.`} />
      {error && <ErrorNote error={error} />}
      {kpis.length > 0 ? (
        <KpiCards label="Today" kpis={kpis} />
      ) : (
        !error && (
          <p class="loading" aria-busy="true">
            Loading the overview…
          </p>
        )
      )}
      {overview.data && <Figures overview={overview.data} />}
      <div class="home-grid">
        <Card title="Needs a decision">
          <ul class="decisions">
            <li>
              <span>
                <a href="/console/affiliates?status=pending">Affiliates awaiting approval</a>
                <span class="muted"> Approve or reject their sign-ups.</span>
              </span>
              {pending.data && (
                <Badge tone={waiting > 0 ? 'warning' : 'success'}>
                  {waiting > 0 ? `${counted(pending.data.affiliates, pending.data.next_cursor)} waiting` : 'none waiting'}
                </Badge>
              )}
            </li>
            <li>
              <span>
                <a href="/console/rejections">Rejected records</a>
                <span class="muted"> Records the service could not apply.</span>
              </span>
              {rejections.data && (
                <Badge tone={newest.length > 0 ? 'danger' : 'success'}>
                  {newest.length > 0 ? `${counted(rejections.data.rejections, rejections.data.next_cursor)} in 14 days` : 'none'}
                </Badge>
              )}
            </li>
          </ul>
          {newest.length > 0 && (
            <>
              <h3 class="home-subhead">Newest rejections</h3>
              <ul class="newest-rejections">
                {newest.map((rejection) => (
                  <li key={`${rejection.received_at}#${rejection.shard}#${rejection.seq}`}>
                    <span class="cluster">
                      <a href={playerPath(rejection.profile_id)} class="break">
                        <Visible text={rejection.profile_id} />
                      </a>
                      <span class="muted">
                        <When at={rejection.received_at} />
                      </span>
                    </span>
                    <span class="reason">{rejection.reason}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </Card>
        <div class="home-side">
          <Card title="Find a player">
            <PlayerSearch id="home-player" name="Find a player" value={id} onInput={setId} onSubmit={open} button="Find" />
            <p class="muted home-hint">
              Or browse <a href="/console/players">all players</a>.
            </p>
          </Card>
          {overview.data && <NotSent counts={overview.data.not_sent} />}
          {largest.length > 0 && (
            <Card title="Largest segments">
              <ol class="largest-segments">
                {largest.map((segment) => (
                  <li key={segment.segment_id}>
                    <span class="segment-name break">
                      <a href={`/console/segments/${encodeURIComponent(segment.segment_id)}`}>
                        <Visible text={segment.name} />
                      </a>
                      {segment.status !== 'active' && <Badge>{segment.status}</Badge>}
                    </span>
                    <span class="num segment-size">{formatCount(segment.size)} players</span>
                  </li>
                ))}
              </ol>
            </Card>
          )}
        </div>
      </div>
    </>
  );
}

/** What the send gate held back in the period, by reason, most first: the proof that the rules worked. */
function NotSent({ counts }: { counts: Record<string, number> | undefined }) {
  const reasons = Object.entries(counts ?? {})
    .filter(([, n]) => n > 0)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  return (
    <Card title={`Messages not sent (last ${DAYS} days)`}>
      {reasons.length === 0 ? (
        <p class="muted">None: no message was refused or deferred.</p>
      ) : (
        <ul class="not-sent">
          {reasons.map(([reason, n]) => (
            <li key={reason}>
              <span>{notSentWords[reason] ?? reason}</span>
              <span class="num segment-size">{formatCount(n)}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** A missing segments route (404, before the segments arrive) is no error: the card stays hidden. */
function quietWhenMissing(error: unknown): { segments: SegmentSummary[] } {
  if (error instanceof ApiError && error.status === 404) return { segments: [] };
  throw error;
}

/** The last days' figures: a KPI card each (change against the days before, sparkline), and a chart by day. */
function Figures({ overview }: { overview: Overview }) {
  const { totals, previous, currency } = overview;
  const by = (pick: (day: Overview['days'][number]) => number) => overview.days.map(pick);
  const kpis: Kpi[] = [
    {
      label: 'New registrations',
      value: formatCount(totals.registrations),
      current: totals.registrations,
      previous: previous.registrations,
      series: by((d) => d.registrations),
      id: 'kpi-registrations',
    },
    { label: 'FTDs', value: formatCount(totals.ftds), current: totals.ftds, previous: previous.ftds, series: by((d) => d.ftds), id: 'kpi-ftds' },
    {
      label: 'Deposits',
      value: figure(totals.deposits, currency),
      unit: currency,
      note: `${formatCount(totals.deposit_count)} deposits`,
      current: decimal(totals.deposits),
      previous: decimal(previous.deposits),
      series: by((d) => decimal(d.deposits)),
      id: 'kpi-deposits',
    },
    {
      label: 'NGR',
      value: figure(totals.ngr, currency),
      unit: currency,
      current: decimal(totals.ngr),
      previous: decimal(previous.ngr),
      series: by((d) => decimal(d.ngr)),
      id: 'kpi-ngr',
    },
  ];
  const days = useMemo(() => overview.days.map((d) => d.day), [overview]);
  const series = useMemo<ChartSeries[]>(
    () => [
      { label: 'New registrations', values: overview.days.map((d) => d.registrations) },
      { label: 'FTDs', values: overview.days.map((d) => d.ftds) },
      { label: 'Deposits (count)', values: overview.days.map((d) => d.deposit_count) },
    ],
    [overview],
  );
  return (
    <Card title={`Last ${DAYS} days`} id="figures">
      <p class="muted home-period">
        {formatDay(overview.from)} – {formatDay(overview.to)} (UTC), against the {DAYS} days before. Money in {currency}.
      </p>
      <KpiCards label={`Last ${DAYS} days`} kpis={kpis} />
      <TimeChart title="New registrations, FTDs and deposits by day" days={days} series={series} />
    </Card>
  );
}
