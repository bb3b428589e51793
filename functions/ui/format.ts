/**
 * Report figures as people read them, for the server-rendered portal and the
 * console in the browser alike: from the report's exact decimal strings
 * (never through floating point), days as UTC days.
 */

const groupDigits = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** `1234567` → `1,234,567`. */
export const formatCount = (value: number): string => groupDigits(String(value));

/** A report's rate (`"0.2500"`, 4 places) as a percentage, `25.00 %`, by moving the point: exact; no rate (no denominator) is a dash. */
export function formatRate(rate: string | null): string {
  const parts = rate === null ? null : /^(\d+)\.(\d{2})(\d{2})$/.exec(rate);
  if (!parts) return rate ?? '\u2013';
  return `${groupDigits(String(BigInt(parts[1] + parts[2])))}.${parts[3]} %`;
}

/** A sub-id row's name for people: the two rows that are no sub-id say what they hold. */
export const subIdLabel = (subId: string): string => (subId === '(other)' ? 'Other sub-ids' : subId === '(none)' ? 'Without a sub-id' : subId);

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** The currency's number format: its own minor digits (2 for EUR, 0 for JPY, 3 for BHD), truncated, never rounded up. */
function moneyFormat(currency: string): Intl.NumberFormat | undefined {
  let format = moneyFormats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat('en-GB', { style: 'currency', currency, currencyDisplay: 'code', roundingMode: 'trunc', signDisplay: 'negative' });
    } catch {
      return undefined;
    }
    moneyFormats.set(currency, format);
  }
  return format;
}

/**
 * `"-1234.5"`, `"EUR"` → `−1,234.50 EUR`: through Intl.NumberFormat from the
 * exact decimal string (never a float), in the currency's own minor digits,
 * truncated as commissions are; the sign a real minus, none on a zero, the
 * code after the figure as the reports and CSV files write it.
 */
export function formatMoney(amount: string, currency: string): string {
  const text = amount.trim();
  const format = /^-?\d+(\.\d+)?$/.test(text) ? moneyFormat(currency) : undefined;
  if (!format) return `${amount} ${currency}`;
  // Intl takes a decimal string exactly (ECMA-402 NumberFormat v3); the type says number only.
  const parts = format.formatToParts(text as unknown as number);
  const figure = parts
    .filter((part) => ['integer', 'group', 'decimal', 'fraction'].includes(part.type))
    .map((part) => part.value)
    .join('');
  const negative = parts.some((part) => part.type === 'minusSign');
  return `${negative ? '\u2212' : ''}${figure} ${currency}`;
}

/** A figure without its currency, where a caption or unit names it once (formatMoney's digits, the code dropped). */
export function figure(amount: string, currency: string): string {
  const text = formatMoney(amount, currency);
  return text.endsWith(` ${currency}`) ? text.slice(0, -(currency.length + 1)) : text;
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
