/**
 * The programme view as CSV (RFC 4180): one row per affiliate, then the
 * totals; money as the view's exact decimal strings, cells escaped and
 * neutralised as the affiliate report's CSV does (a username is the
 * affiliate's to choose).
 */
import { programmeFigures, type Programme } from '../domain/programme';
import { csvRow } from './affiliate-report-csv';

export function programmeCsv(view: Programme): string {
  const lines = [csvRow(['row', 'month', 'affiliate_id', 'username', 'status', 'plan', ...programmeFigures, 'currency'])];
  for (const row of view.affiliates) {
    lines.push(
      csvRow([
        'affiliate',
        view.month,
        row.affiliate_id,
        row.username,
        row.status,
        row.plan?.name ?? '',
        ...programmeFigures.map((name) => row[name]),
        view.currency,
      ]),
    );
  }
  lines.push(csvRow(['total', view.month, '', '', '', '', ...programmeFigures.map((name) => view.totals[name]), view.currency]));
  return `${lines.join('\r\n')}\r\n`;
}
