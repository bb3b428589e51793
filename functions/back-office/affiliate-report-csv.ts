/**
 * The report as CSV (RFC 4180): one row per day, then one per link, then one
 * per link and sub-id, then the totals; money as the report's exact decimal
 * strings. One flat table, the `row` column telling the kinds apart, so a
 * spreadsheet filters or pivots it; the columns added later (`sub_id`, the
 * rates) come after the first ones, so an import made for those still reads. A cell that a
 * spreadsheet would read as a formula (a link name starting with = + - @)
 * is prefixed with an apostrophe.
 */
import type { AffiliateReport, FunnelFigures } from '../domain/affiliate-program';

const figures = ['clicks', 'registrations', 'ftds', 'qualified_ftds', 'deposits', 'withdrawals', 'ngr', 'cpa', 'revshare', 'commission'] as const;

function cell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line of cells, escaped and neutralised as above: the segments' export writes its rows with it too. */
export const csvRow = (cells: readonly (string | number)[]) => cells.map(cell).join(',');
const row = csvRow;
const values = (f: FunnelFigures) => figures.map((name) => f[name]);
const rates = (f: FunnelFigures) => [f.registration_rate ?? '', f.ftd_rate ?? ''];

export function reportCsv(report: AffiliateReport): string {
  const lines = [row(['row', 'date', 'link_id', 'link_name', ...figures, 'currency', 'sub_id', 'registration_rate', 'ftd_rate'])];
  for (const day of report.days) lines.push(row(['day', day.date, '', '', ...values(day), report.currency, '', ...rates(day)]));
  for (const link of report.links) lines.push(row(['link', '', link.link_id, link.name ?? '', ...values(link), report.currency, '', ...rates(link)]));
  for (const sub of report.sub_ids ?? []) {
    lines.push(row(['sub_id', '', sub.link_id, sub.name ?? '', ...values(sub), report.currency, sub.sub_id, ...rates(sub)]));
  }
  lines.push(row(['total', '', '', '', ...values(report.totals), report.currency, '', ...rates(report.totals)]));
  return `${lines.join('\r\n')}\r\n`;
}

/** The download's name; the back office, which downloads many affiliates' reports, names the affiliate too. */
export function csvFileName(report: Pick<AffiliateReport, 'affiliate_id' | 'from' | 'to'>, options: { affiliate?: boolean } = {}): string {
  return options.affiliate
    ? `affiliate-report-${report.affiliate_id}-${report.from}-to-${report.to}.csv`
    : `affiliate-report-${report.from}-to-${report.to}.csv`;
}
