/**
 * The money-event mapping as the Settings page edits it: the kinds, and which
 * of the server's 400 messages is about which event (a row).
 */
import type { MoneyKind } from '../../domain/affiliate-program';

/** The kinds the server takes (functions/domain/affiliate-program.ts, whose types only the UI may import): a kind added there and missing here fails the type check. */
export const kindWords: Record<MoneyKind, string> = { deposit: 'deposit', withdrawal: 'withdrawal', bet: 'bet', win: 'win', bonus: 'bonus' };
export const moneyKinds = Object.keys(kindWords) as MoneyKind[];

/** A row of the mapping being edited. */
export interface MoneyRow {
  /** Stable across edits: the row's key and its controls' ids. */
  key: number;
  name: string;
  kind: MoneyKind;
}

/**
 * The server's messages about one event of the mapping: it names the event
 * quoted (`money_events: "" is not an event name…`), bare
 * (`money_events: urm_affiliate_attributed is the attribution event…`) or in
 * a path (`money_events.Deposit must be one of…`). The body is a map, so an
 * event is its name, not its position.
 */
export function moneyRowErrors(errors: readonly string[] | undefined, name: string): string[] {
  if (!errors) return [];
  return errors.filter(
    (message) =>
      message.startsWith(`money_events: ${JSON.stringify(name)} `) ||
      message.startsWith(`money_events: ${name} is the attribution event`) ||
      message.startsWith(`money_events.${name} must be `),
  );
}
