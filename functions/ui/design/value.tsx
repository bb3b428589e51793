/**
 * Values shown as values, on every page: a string without quotes, a boolean
 * as Yes/No, a date or time in the reader's time zone with its UTC form on
 * hover, money with its currency (formatMoney: Intl.NumberFormat, from the
 * exact decimal string), an array as chips, an object as compact JSON. The value's type is
 * on hover (`title`), so `"true"` and `true` still read differently to whoever
 * asks. Pure: renders on the server (the portal, in UTC) and in the browser.
 */
import { formatMoney } from '../format';
import { visibleParts } from '../visible';

export type ValueType = 'string' | 'number' | 'boolean' | 'date-time' | 'list' | 'object' | 'empty';

const isoDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

export function typeOf(value: unknown): ValueType {
  if (value === null || value === undefined) return 'empty';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') return isoDateTime.test(value) ? 'date-time' : 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return 'object';
}

const typeWords: Record<ValueType, string> = {
  string: 'text',
  number: 'number',
  boolean: 'yes/no',
  'date-time': 'date and time',
  list: 'list',
  object: 'object',
  empty: 'no value',
};

/** A date-time in the reader's zone (`timeZone` undefined) or the one given, e.g. UTC on the server. */
export function formatDateTime(at: string, timeZone?: string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return at;
  return new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(date) + (timeZone === 'UTC' ? ' UTC' : '');
}

/**
 * Text as it is, except what cannot be seen: each invisible, bidi or
 * space-like character is shown as a marked `⟨U+XXXX⟩` (functions/ui/visible.ts),
 * so two ids that render alike never look alike here. For ids and names.
 */
export function Visible({ text }: { text: string }) {
  const parts = visibleParts(text);
  if (parts.every((part) => !part.escaped)) return <>{text}</>;
  return (
    <>
      {parts.map((part, index) =>
        part.escaped ? (
          <mark key={index} class="invisible-char" title="A character that cannot be seen">
            {part.text}
          </mark>
        ) : (
          part.text
        ),
      )}
    </>
  );
}

/** A time: the reader's zone shown, the exact ISO value on hover and for machines. */
export function When({ at, timeZone }: { at: string; timeZone?: string }) {
  return (
    <time dateTime={at} title={`${at} (UTC)`}>
      {formatDateTime(at, timeZone)}
    </time>
  );
}

export function Money({ amount, currency }: { amount: string; currency: string }) {
  return (
    <span class="num" title={`${amount} ${currency}`}>
      {formatMoney(amount, currency)}
    </span>
  );
}

export function Chips({ items }: { items: readonly unknown[] }) {
  if (items.length === 0) return <span class="value-empty">none</span>;
  return (
    <ul class="chips">
      {items.map((item, index) => (
        <li class="chip" key={`${index}:${String(item)}`}>
          {typeof item === 'string' ? <Visible text={item} /> : JSON.stringify(item)}
        </li>
      ))}
    </ul>
  );
}

/** Any stored value as a person reads it; its type on hover. */
export function Value({ value, timeZone }: { value: unknown; timeZone?: string }) {
  const type = typeOf(value);
  const title = `Type: ${typeWords[type]}`;
  switch (type) {
    case 'empty':
      return (
        <span class="value-empty" title={title}>
          {value === null ? 'null' : 'not set'}
        </span>
      );
    case 'boolean':
      return <span title={title}>{value ? 'Yes' : 'No'}</span>;
    case 'number':
      return (
        <span class="num" title={`${title}: ${String(value)}`}>
          {new Intl.NumberFormat('en-GB', { maximumFractionDigits: 20 }).format(value as number)}
        </span>
      );
    case 'date-time':
      return (
        <time dateTime={value as string} title={`${title}: ${value as string} (UTC)`}>
          {formatDateTime(value as string, timeZone)}
        </time>
      );
    case 'list':
      return (
        <span title={title}>
          <Chips items={value as unknown[]} />
        </span>
      );
    case 'object':
      return (
        <code title={title} class="break">
          {JSON.stringify(value)}
        </code>
      );
    default:
      return (
        <span title={title} class="break">
          <Visible text={value as string} />
        </span>
      );
  }
}
