/** The affiliate's dashboard: the period's figures, a chart by day, a table by link, a CSV download. */
import type { AffiliateReport, FunnelFigures } from '../../domain/affiliate-program';
import type { Period } from '../../domain/affiliate-portal';
import { DayChart } from '../../ui/chart';
import { formatCount, formatDay, formatMoney } from '../../ui/format';
import { Field, Layout, Notice } from './layout';

export interface DashboardView {
  appName?: string;
  name: string;
  csrf: string;
  period: Period;
  /** The period asked for was not valid, or too long, and was changed. */
  adjusted: boolean;
  report: AffiliateReport;
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
        <td key={key}>{formatCount(props.figures[key])}</td>
      ))}
      {moneyColumns.map(([key]) => (
        <td key={key}>{formatMoney(props.figures[key], props.currency)}</td>
      ))}
    </>
  );
}

function FigureHeads() {
  return (
    <>
      {[...countColumns, ...moneyColumns].map(([key, label]) => (
        <th key={key} scope="col">
          {label}
        </th>
      ))}
    </>
  );
}

/** The amount large, its currency small beside it: a tile stays one line wide. */
function MoneyValue(props: { text: string }) {
  const split = props.text.lastIndexOf(' ');
  return (
    <>
      {props.text.slice(0, split)}
      <span class="unit">{props.text.slice(split)}</span>
    </>
  );
}

export function DashboardPage(props: DashboardView) {
  const { report } = props;
  const query = new URLSearchParams({ from: props.period.from, to: props.period.to }).toString();
  return (
    <Layout title="Dashboard" appName={props.appName} signedIn={{ name: props.name, csrf: props.csrf, current: 'dashboard' }}>
      <div class="row-head">
        <h1>Dashboard</h1>
        <p class="muted" id="period-label">
          {formatDay(props.period.from)} – {formatDay(props.period.to)} (UTC)
        </p>
      </div>
      <form class="card period" method="get" action="./" aria-label="Period">
        <Field name="from" label="From" type="date" value={props.period.from} />
        <Field name="to" label="To" type="date" value={props.period.to} />
        <button type="submit">Show</button>
        <a class="button" href={`report.csv?${query}`} download>
          Download CSV
        </a>
      </form>
      {props.adjusted && (
        <Notice kind="info">
          That period could not be shown as asked; showing {formatDay(props.period.from)} to {formatDay(props.period.to)}.
        </Notice>
      )}
      <ul class="tiles" aria-label="Period totals">
        {countColumns.map(([key, label]) => (
          <li class="tile" key={key} id={`total-${key}`}>
            <span class="name">{label}</span>
            <span class="value">{formatCount(report.totals[key])}</span>
          </li>
        ))}
        {moneyColumns.map(([key, label]) => (
          <li class={key === 'commission' ? 'tile key' : 'tile'} key={key} id={`total-${key}`}>
            <span class="name">{label}</span>
            <span class="value">
              <MoneyValue text={formatMoney(report.totals[key], report.currency)} />
            </span>
          </li>
        ))}
      </ul>
      <section class="card" aria-labelledby="by-day">
        <h2 id="by-day">By day</h2>
        <DayChart days={report.days} />
      </section>
      <section class="card" aria-labelledby="by-link">
        <div class="row-head">
          <h2 id="by-link">By link</h2>
          <a href="links">Manage links</a>
        </div>
        {report.links.length === 0 ? (
          <p class="muted" id="no-links">
            No clicks or players through your links in this period yet.
          </p>
        ) : (
          <div class="table-wrap">
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
                    <th scope="row">{link.name ?? (link.link_id === '-' ? 'Without a link' : link.link_id)}</th>
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
          </div>
        )}
      </section>
      <section class="card" aria-labelledby="day-table">
        <details>
          <summary id="day-table">The figures by day</summary>
          <div class="table-wrap">
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
                    <th scope="row">{formatDay(day.date)}</th>
                    <FigureCells figures={day} currency={report.currency} />
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      </section>
    </Layout>
  );
}
