/**
 * The report as CSV (RFC 4180): one row per day, then one per link, then the
 * totals; money as the report's exact decimal strings. A cell that a
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

export function reportCsv(report: AffiliateReport): string {
  const lines = [row(['row', 'date', 'link_id', 'link_name', ...figures, 'currency'])];
  for (const day of report.days) lines.push(row(['day', day.date, '', '', ...values(day), report.currency]));
  for (const link of report.links) lines.push(row(['link', '', link.link_id, link.name ?? '', ...values(link), report.currency]));
  lines.push(row(['total', '', '', '', ...values(report.totals), report.currency]));
  return `${lines.join('\r\n')}\r\n`;
}

/** The download's name; the back office, which downloads many affiliates' reports, names the affiliate too. */
export function csvFileName(report: Pick<AffiliateReport, 'affiliate_id' | 'from' | 'to'>, options: { affiliate?: boolean } = {}): string {
  return options.affiliate
    ? `affiliate-report-${report.affiliate_id}-${report.from}-to-${report.to}.csv`
    : `affiliate-report-${report.from}-to-${report.to}.csv`;
}
