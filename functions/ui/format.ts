/**
 * Report figures as people read them, for the server-rendered portal and the
 * console in the browser alike: from the report's exact decimal strings
 * (never through floating point), days as UTC days.
 */

const groupDigits = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** `1234567` → `1,234,567`. */
export const formatCount = (value: number): string => groupDigits(String(value));

/** `"-1234.5"`, `"EUR"` → `−1,234.50 EUR`: two decimals, the sign as a real minus, no minus on a zero. */
export function formatMoney(amount: string, currency: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) return `${amount} ${currency}`;
  const [, sign, whole = '0', fraction = ''] = match;
  const cents = `${fraction}00`.slice(0, 2);
  const negative = sign === '-' && /[1-9]/.test(whole + cents);
  return `${negative ? '\u2212' : ''}${groupDigits(whole.replace(/^0+(?=\d)/, ''))}.${cents} ${currency}`;
}

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2026-11-05` → `5 Nov 2026`. */
export function formatDay(day: string): string {
  const [year, month, date] = day.split('-');
  return `${Number(date)} ${months[Number(month) - 1] ?? '?'} ${year}`;
}

/** `2026-11-05T09:03:07.123Z` → `5 Nov 2026, 09:03:07 UTC`. */
export function formatTime(at: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(at);
  return match ? `${formatDay(match[1])}, ${match[2]} UTC` : at;
}

/** `YYYY-MM-DD` of a date, in UTC (report days are UTC days). */
export const isoDay = (date: Date): string => date.toISOString().slice(0, 10);
