/**
 * Programme: every affiliate of the application in one month (the month in
 * the address, `?month=2026-11`; the current one by default), sortable by
 * each figure, with the month's totals, its CSV, the top affiliates and the
 * top sub-ids. Each affiliate's figures are its own report's.
 */
import { useLocation } from 'preact-iso';
import type { ConsoleAnswer } from '../../answers';
import { StatusBadge } from '../../../ui/design/badge';
import { type Column, DataTable } from '../../../ui/design/data-table';
import { type Kpi, KpiCards } from '../../../ui/design/kpi';
import { Card, PageHeader, TableRegion } from '../../../ui/design/page';
import { Visible } from '../../../ui/design/value';
import { figure, formatCount } from '../../../ui/format';
import { apiPath, getJson } from '../api';
import { ErrorNote, Loading } from '../components';
import { useApi } from '../use-api';

type Programme = ConsoleAnswer<'ConsoleProgramme'>;
type Row = Programme['affiliates'][number];

const monthFormat = /^2\d{3}-(0[1-9]|1[0-2])$/;
const monthNames = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `2026-11` → `November 2026`. */
export const monthName = (month: string) => `${monthNames[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;

const affiliateLink = (row: { affiliate_id: string; username: string }) => (
  <a href={`/console/affiliates/${encodeURIComponent(row.affiliate_id)}`}>
    <Visible text={row.username} />
  </a>
);

/** The table's columns; money sorts by its value, shown in the application's currency's format. */
function columnsFor(currency: string): Column<Row>[] {
  const count = (id: 'clicks' | 'registrations' | 'ftds' | 'qualified_ftds', header: string, hidden = false): Column<Row> => ({
    id,
    header,
    numeric: true,
    hidden,
    value: (row) => row[id],
    cell: (row) => formatCount(row[id]),
  });
  const money = (id: 'deposits' | 'ngr' | 'cpa' | 'revshare' | 'commission', header: string, hidden = false): Column<Row> => ({
    id,
    header,
    numeric: true,
    hidden,
    required: id === 'commission',
    value: (row) => Number(row[id]),
    cell: (row) => <span title={`${row[id]} ${currency}`}>{figure(row[id], currency)}</span>,
  });
  return [
    { id: 'affiliate', header: 'Affiliate', rowHeader: true, required: true, value: (row) => row.username, cell: affiliateLink },
    count('clicks', 'Clicks'),
    count('registrations', 'Registrations'),
    count('ftds', 'FTDs'),
    count('qualified_ftds', 'Qualified FTDs', true),
    money('deposits', 'Deposits'),
    money('ngr', 'NGR'),
    money('cpa', 'CPA', true),
    money('revshare', 'RevShare', true),
    money('commission', 'Commission'),
    // After the figures: on a phone the figures come first, beside the sticky name.
    {
      id: 'plan',
      header: 'Plan',
      value: (row) => row.plan?.name,
      cell: (row) => (row.plan ? <span class="plan-name">{row.plan.name}</span> : <span class="muted">none</span>),
    },
    { id: 'status', header: 'Status', value: (row) => row.status, cell: (row) => <StatusBadge status={row.status} /> },
  ];
}

export function ProgrammePage() {
  const { query, route } = useLocation();
  const month = monthFormat.test(query.month ?? '') ? query.month : undefined;
  const view = useApi(() => getJson<Programme>('/programme', { month }), month ?? '');
  const data = view.data;
  const shown = data?.month ?? month ?? '';
  const csv = apiPath('/programme.csv', { month: data?.month ?? month });
  const picker = (
    <form class="month-picker" aria-label="Month shown" onSubmit={(event) => event.preventDefault()}>
      <label for="programme-month">Month</label>
      <input
        id="programme-month"
        type="month"
        name="month"
        value={shown}
        onChange={(event) => {
          const chosen = event.currentTarget.value;
          if (monthFormat.test(chosen)) route(`/console/affiliates/programme?month=${chosen}`, true);
        }}
      />
    </form>
  );
  return (
    <>
      <PageHeader
        title="Programme"
        subtitle="Every affiliate's month: traffic, players, money and commission, each from the affiliate's own report."
        trail={[{ label: 'Affiliates', href: '/console/affiliates' }, { label: 'Programme' }]}
        actions={
          data && (
            <a class="button" href={csv} download>
              Download CSV
            </a>
          )
        }
      />
      {view.error && <ErrorNote error={view.error} />}
      {!data && view.loading && <Loading what="the programme" />}
      {data && <MonthTotals programme={data} />}
      <Card title={shown ? `Affiliates in ${monthName(shown)}` : 'Affiliates'}>
        {data?.truncated && (
          <p class="alert tone-warning" role="status">
            The first {formatCount(data.affiliates.length)} affiliates by id are shown; the CSV holds the same.
          </p>
        )}
        <div class="programme-table">
          <DataTable
            label="Affiliates by month"
            rows={data?.affiliates}
            columns={columnsFor(data?.currency ?? 'EUR')}
            rowId={(row) => row.affiliate_id}
            loading={view.loading}
            toolbar={picker}
            sortedBy={{ id: 'commission', desc: true }}
            empty={<p>No affiliates yet.</p>}
            footer={
              data && {
                affiliate: 'Total',
                clicks: formatCount(data.totals.clicks),
                registrations: formatCount(data.totals.registrations),
                ftds: formatCount(data.totals.ftds),
                qualified_ftds: formatCount(data.totals.qualified_ftds),
                deposits: figure(data.totals.deposits, data.currency),
                ngr: figure(data.totals.ngr, data.currency),
                cpa: figure(data.totals.cpa, data.currency),
                revshare: figure(data.totals.revshare, data.currency),
                commission: figure(data.totals.commission, data.currency),
              }
            }
          />
        </div>
        {data && <p class="table-note muted">Amounts in {data.currency}. Sort by any column; the CSV has every column, exact to the cent.</p>}
      </Card>
      {data && <Tops programme={data} />}
    </>
  );
}

function MonthTotals({ programme }: { programme: Programme }) {
  const t = programme.totals;
  const active = programme.affiliates.filter((row) => row.clicks > 0 || row.registrations > 0 || row.ftds > 0 || Number(row.ngr) !== 0).length;
  const kpis: Kpi[] = [
    { label: 'Active affiliates', value: formatCount(active), note: `of ${formatCount(programme.affiliates.length)}` },
    { label: 'Clicks', value: formatCount(t.clicks) },
    { label: 'Registrations', value: formatCount(t.registrations) },
    { label: 'FTDs', value: formatCount(t.ftds) },
    { label: 'NGR', value: figure(t.ngr, programme.currency), unit: programme.currency },
    { label: 'Commission', value: figure(t.commission, programme.currency), unit: programme.currency, key: true },
  ];
  return (
    <div class="programme-totals">
      <KpiCards label="Month totals" kpis={kpis} />
    </div>
  );
}

/** The month's leaders: where the money goes, where the players come from, and which of the affiliates' sources work. */
function Tops({ programme }: { programme: Programme }) {
  const currency = programme.currency;
  return (
    <div class="programme-tops">
      <Card title="Top affiliates">
        <div class="top-lists">
          <section aria-labelledby="top-commission">
            <h3 id="top-commission">By commission</h3>
            {programme.top.by_commission.length === 0 ? (
              <p class="muted">No commission this month.</p>
            ) : (
              <ol class="ranking">
                {programme.top.by_commission.map((row) => (
                  <li key={row.affiliate_id}>
                    <span class="ranking-name">{affiliateLink(row)}</span>
                    <span class="ranking-figure" title={`${row.commission} ${currency}`}>
                      {figure(row.commission, currency)} {currency}
                    </span>
                  </li>
                ))}
              </ol>
            )}
          </section>
          <section aria-labelledby="top-ftds">
            <h3 id="top-ftds">By FTDs</h3>
            {programme.top.by_ftds.length === 0 ? (
              <p class="muted">No first deposits this month.</p>
            ) : (
              <ol class="ranking">
                {programme.top.by_ftds.map((row) => (
                  <li key={row.affiliate_id}>
                    <span class="ranking-name">{affiliateLink(row)}</span>
                    <span class="ranking-figure">
                      {formatCount(row.ftds)} FTD{row.ftds === 1 ? '' : 's'}
                    </span>
                  </li>
                ))}
              </ol>
            )}
          </section>
        </div>
      </Card>
      <Card title="Top sub-ids">
        {programme.top.sub_ids.length === 0 ? (
          <p class="muted">No sub-id traffic this month. Affiliates tag their traffic with urm_aff on their click addresses.</p>
        ) : (
          <TableRegion label="Top sub-ids (scrolls)">
            <table class="top-sub-ids">
              <thead>
                <tr>
                  <th scope="col">Sub-id</th>
                  <th scope="col">Affiliate</th>
                  <th scope="col" class="num">
                    Clicks
                  </th>
                  <th scope="col" class="num">
                    Registrations
                  </th>
                  <th scope="col" class="num">
                    FTDs
                  </th>
                </tr>
              </thead>
              <tbody>
                {programme.top.sub_ids.map((row) => (
                  <tr key={`${row.affiliate_id}\n${row.link_id}\n${row.sub_id}`}>
                    <th scope="row" class="break">
                      <Visible text={row.sub_id} />
                    </th>
                    <td>{affiliateLink(row)}</td>
                    <td class="num">{formatCount(row.clicks)}</td>
                    <td class="num">{formatCount(row.registrations)}</td>
                    <td class="num">{formatCount(row.ftds)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
      </Card>
    </div>
  );
}
