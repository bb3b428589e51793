/** Numbers as people read them, from the report's exact decimal strings (never through floating point). */

/** `1234567` → `1,234,567`. */
export function formatCount(value: number): string {
  return groupDigits(String(value));
}

function groupDigits(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `"-1234.5"`, `"EUR"` → `−1,234.50 EUR`; two decimals, the sign as a real minus. */
export function formatMoney(amount: string, currency: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) return `${amount} ${currency}`;
  const [, sign, whole, fraction = ''] = match;
  const cents = `${fraction}00`.slice(0, 2);
  const negative = sign === '-' && /[1-9]/.test(whole + cents);
  return `${negative ? '\u2212' : ''}${groupDigits(whole.replace(/^0+(?=\d)/, ''))}.${cents} ${currency}`;
}

/** `2026-11-05` → `5 Nov 2026`. */
export function formatDay(day: string): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const [year, month, date] = day.split('-');
  return `${Number(date)} ${months[Number(month) - 1]} ${year}`;
}

/** `2026-11-05T09:03:07.123Z` → `5 Nov 2026, 09:03:07 UTC`. */
export function formatTime(at: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(at);
  return match ? `${formatDay(match[1])}, ${match[2]} UTC` : at;
}
