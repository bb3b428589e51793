/** The affiliate's dashboard: the period's figures, a chart by day, a table by link, a CSV download. */
import type { AffiliateReport, FunnelFigures } from '../../domain/affiliate-program';
import type { Period } from '../../domain/affiliate-portal';
import { DayChart } from '../../ui/chart';
import { type Kpi, KpiCards } from '../../ui/design/kpi';
import { PageHeader } from '../../ui/design/page';
import { formatCount, formatDay, formatMoney, formatRate, subIdLabel } from '../../ui/format';
import { Field, Layout, Notice, TableRegion } from './layout';

export interface DashboardView {
  appName?: string;
  name: string;
  csrf: string;
  period: Period;
  /** The period asked for was not valid, or too long, and was changed. */
  adjusted: boolean;
  report: AffiliateReport;
  /** The totals of the period of equal length just before, when known: each card's change. */
  previous?: FunnelFigures;
  /** Today (UTC, YYYY-MM-DD), when known: the quick periods. */
  today?: string;
  /** The affiliate's deal in words, when known. */
  deal?: DealLines;
}

const moneyColumns = [
  ['deposits', 'Deposits'],
  ['ngr', 'NGR'],
  ['commission', 'Commission'],
] as const;

const countColumns = [
  ['clicks', 'Clicks'],
  ['registrations', 'Registrations'],
  ['ftds', 'FTDs'],
] as const;

function FigureCells(props: { figures: FunnelFigures; currency: string }) {
  return (
    <>
      {countColumns.map(([key]) => (
        <td key={key} class="num">
          {formatCount(props.figures[key])}
        </td>
      ))}
      {moneyColumns.map(([key]) => (
        <td key={key} class="num">
          {formatMoney(props.figures[key], props.currency)}
        </td>
      ))}
    </>
  );
}

function FigureHeads() {
  return (
    <>
      {[...countColumns, ...moneyColumns].map(([key, label]) => (
        <th key={key} scope="col" class="num">
          {label}
        </th>
      ))}
    </>
  );
}

/** The amount large, its currency small beside it: a card stays one line wide. */
function MoneyValue(props: { text: string }) {
  const split = props.text.lastIndexOf(' ');
  return (
    <span class="value">
      {props.text.slice(0, split)}
      <span class="kpi-unit">{props.text.slice(split)}</span>
    </span>
  );
}

const dayOffset = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The periods an affiliate looks at most, as links: no script needed. */
function quickPeriods(today: string): { label: string; from: string; to: string }[] {
  const monthStart = `${today.slice(0, 7)}-01`;
  const lastMonthEnd = dayOffset(monthStart, -1);
  return [
    { label: 'Last 7 days', from: dayOffset(today, -6), to: today },
    { label: 'Last 30 days', from: dayOffset(today, -29), to: today },
    { label: 'This month', from: monthStart, to: today },
    { label: 'Last month', from: `${lastMonthEnd.slice(0, 7)}-01`, to: lastMonthEnd },
  ];
}

function kpisOf(report: AffiliateReport, previous: FunnelFigures | undefined): Kpi[] {
  const counts = countColumns.map(
    ([key, label]): Kpi => ({
      id: `total-${key}`,
      label,
      value: <span class="value">{formatCount(report.totals[key])}</span>,
      current: report.totals[key],
      previous: previous?.[key],
      series: report.days.map((day) => day[key]),
    }),
  );
  const money = moneyColumns.map(
    ([key, label]): Kpi => ({
      id: `total-${key}`,
      label,
      value: <MoneyValue text={formatMoney(report.totals[key], report.currency)} />,
      current: Number(report.totals[key]),
      previous: previous ? Number(previous[key]) : undefined,
      series: report.days.map((day) => Number(day[key])),
      key: key === 'commission',
    }),
  );
  return [...counts, ...money];
}

/** The affiliate's deal in words: the one in force today, and the next one scheduled. */
export interface DealLines {
  current?: string;
  upcoming?: { from: string; terms: string };
}

function YourDeal({ deal }: { deal: DealLines }) {
  return (
    <section class="card" aria-labelledby="your-deal">
      <div class="card-header">
        <h2 id="your-deal">Your deal</h2>
      </div>
      <p class="lead">{deal.current ?? 'No deal yet: ask your affiliate manager.'}</p>
      {deal.upcoming && (
        <p class="muted">
          From {formatDay(deal.upcoming.from)}: {deal.upcoming.terms}
        </p>
      )}
    </section>
  );
}

export function DashboardPage(props: DashboardView) {
  const { report } = props;
  const query = new URLSearchParams({ from: props.period.from, to: props.period.to }).toString();
  return (
    <Layout title="Dashboard" appName={props.appName} signedIn={{ name: props.name, csrf: props.csrf, current: 'dashboard' }}>
      <PageHeader
        title="Dashboard"
        subtitle={
          <span id="period-label">
            {formatDay(props.period.from)} – {formatDay(props.period.to)} (UTC)
          </span>
        }
        actions={
          <a class="button" href={`report.csv?${query}`} download>
            Download CSV
          </a>
        }
      />
      <div class="card period-card">
        <form class="period" method="get" action="./" aria-label="Period">
          <Field name="from" label="From" type="date" value={props.period.from} />
          <Field name="to" label="To" type="date" value={props.period.to} />
          <button type="submit" class="primary">
            Show
          </button>
        </form>
        {props.today && (
          <nav class="quick-periods" aria-label="Quick periods">
            <ul class="chips">
              {quickPeriods(props.today).map((quick) => {
                const current = quick.from === props.period.from && quick.to === props.period.to;
                return (
                  <li key={quick.label}>
                    <a class="chip" href={`./?${new URLSearchParams({ from: quick.from, to: quick.to })}`} aria-current={current ? 'true' : undefined}>
                      {quick.label}
                    </a>
                  </li>
                );
              })}
            </ul>
          </nav>
        )}
      </div>
      {props.adjusted && (
        <Notice kind="info">
          That period could not be shown as asked; showing {formatDay(props.period.from)} to {formatDay(props.period.to)}.
        </Notice>
      )}
      <KpiCards label="Period totals" kpis={kpisOf(report, props.previous)} />
      {props.deal && <YourDeal deal={props.deal} />}
      <p class="muted" id="conversion">
        Registrations per click: <strong>{formatRate(report.totals.registration_rate)}</strong> · FTDs per registration:{' '}
        <strong>{formatRate(report.totals.ftd_rate)}</strong>
      </p>
      <section class="card" aria-labelledby="by-day">
        <div class="card-header">
          <h2 id="by-day">By day</h2>
        </div>
        <DayChart days={report.days} />
        <details class="fallback">
          <summary id="day-table">The figures by day</summary>
          <TableRegion label="The figures by day">
            <table>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <FigureHeads />
                </tr>
              </thead>
              <tbody>
                {report.days.map((day) => (
                  <tr key={day.date}>
                    <th scope="row" class="nowrap">
                      {formatDay(day.date)}
                    </th>
                    <FigureCells figures={day} currency={report.currency} />
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        </details>
      </section>
      <section class="card" aria-labelledby="by-link">
        <div class="card-header">
          <h2 id="by-link">By link</h2>
          <a href="links">Manage links</a>
        </div>
        {report.links.length === 0 ? (
          <p class="empty" id="no-links">
            No clicks or players through your links in this period yet.
          </p>
        ) : (
          <TableRegion label="Figures by link">
            <table id="links-table">
              <thead>
                <tr>
                  <th scope="col">Link</th>
                  <FigureHeads />
                </tr>
              </thead>
              <tbody>
                {report.links.map((link) => (
                  <tr key={link.link_id}>
                    <th scope="row" class="name">
                      {link.name ?? (link.link_id === '-' ? 'Without a link' : link.link_id)}
                    </th>
                    <FigureCells figures={link} currency={report.currency} />
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <td>Total</td>
                  <FigureCells figures={report.totals} currency={report.currency} />
                </tr>
              </tfoot>
            </table>
          </TableRegion>
        )}
      </section>
      <SubIdSection report={report} />
    </Layout>
  );
}

/** Rows shown on the page; the CSV has every one. */
const subIdRowsShown = 50;

function SubIdSection({ report }: { report: AffiliateReport }) {
  const rows = [...(report.sub_ids ?? [])].sort((a, b) => b.clicks - a.clicks || b.registrations - a.registrations);
  const shown = rows.slice(0, subIdRowsShown);
  return (
    <section class="card" aria-labelledby="by-sub-id">
      <div class="card-header">
        <h2 id="by-sub-id">By sub-id</h2>
      </div>
      {rows.length === 0 ? (
        <p class="empty" id="no-sub-ids">
          No clicks or players with a sub-id in this period yet. Add <code>?urm_aff=…</code> to a link to tell your traffic sources apart.
        </p>
      ) : (
        <>
          <TableRegion label="Figures by sub-id">
            <table id="sub-ids-table">
              <thead>
                <tr>
                  <th scope="col">Sub-id and link</th>
                  {countColumns.map(([key, label]) => (
                    <th key={key} scope="col" class="num">
                      {label}
                    </th>
                  ))}
                  <th scope="col" class="num">
                    Registration rate
                  </th>
                  <th scope="col" class="num">
                    FTD rate
                  </th>
                  <th scope="col" class="num">
                    Commission
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.map((row) => (
                  <tr key={`${row.link_id}\u0000${row.sub_id}`}>
                    <th scope="row" class="name">
                      {subIdLabel(row.sub_id)}
                      <span class="muted sub-link">{row.name ?? (row.link_id === '-' ? 'Without a link' : row.link_id)}</span>
                    </th>
                    {countColumns.map(([key]) => (
                      <td key={key} class="num">
                        {formatCount(row[key])}
                      </td>
                    ))}
                    <td class="num">{formatRate(row.registration_rate)}</td>
                    <td class="num">{formatRate(row.ftd_rate)}</td>
                    <td class="num">{formatMoney(row.commission, report.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
          <p class="muted" id="sub-ids-note">
            <small>
              Registration rate: registrations per click. FTD rate: first deposits per registration. Up to 100 sub-ids a link and day have their own row; the
              rest are counted under “Other sub-ids”.
            </small>
          </p>
          {rows.length > shown.length && (
            <p class="muted" id="sub-ids-more">
              Showing the {subIdRowsShown} with the most clicks of {formatCount(rows.length)}; the CSV has them all.
            </p>
          )}
        </>
      )}
    </section>
  );
}
