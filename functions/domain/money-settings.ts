/**
 * An application's money settings (affiliate-program.ts, ProgrammeSettings):
 * the main currency every funnel figure is kept in, and which of its event
 * names carry money and what each means. Checked here, whoever sets them
 * (the admin command line, the back office), so the funnel consumer can
 * trust what it reads.
 */
import { defaultCurrency, moneyKinds, type MoneyKind, type ProgrammeSettings } from './affiliate-program';
import { limits } from './limits';
import { identifierPattern } from './text';

/** The event set_affiliate writes on the timeline; the funnel counts registrations from it, so it carries no money. */
export const affiliateAttributedEvent = 'urm_affiliate_attributed';

/** Enough for every name an operator uses for its deposits, bets and the rest, in every language it reports in. */
export const MAX_MONEY_EVENTS = 100;

/** ISO 4217-shaped: three upper-case letters (EUR, USD, BTC-style codes are the operator's business). */
export const currencyPattern = /^[A-Z]{3}$/;

export function isCurrency(value: unknown): value is string {
  return typeof value === 'string' && currencyPattern.test(value);
}

const eventName = new RegExp(identifierPattern, 'u');

/**
 * Names the mapping cannot hold: it is kept as a DynamoDB map, and the SDK's
 * document marshaller refuses a `constructor` key (the write fails) and loses
 * a `__proto__` one. Such events are still ingested and shown; they carry no money.
 */
const unkeepableNames: ReadonlySet<string> = new Set(['constructor', '__proto__']);

export type MoneySettings = Required<Pick<ProgrammeSettings, 'currency' | 'money_events'>>;

/** Each problem with the settings, naming the field; empty when they are fine. */
export function moneySettingsProblems(settings: { currency?: unknown; money_events?: unknown }): string[] {
  const problems: string[] = [];
  if (settings.currency !== undefined && !isCurrency(settings.currency)) {
    problems.push('currency must be three upper-case letters (ISO 4217), e.g. EUR');
  }
  const events = settings.money_events;
  if (events === undefined) return problems;
  if (events === null || typeof events !== 'object' || Array.isArray(events)) {
    return [...problems, `money_events must map event names to one of ${moneyKinds.join(', ')}`];
  }
  const entries = Object.entries(events);
  if (entries.length > MAX_MONEY_EVENTS) problems.push(`money_events may name at most ${MAX_MONEY_EVENTS} events`);
  for (const [name, kind] of entries) {
    if (name.length === 0 || name.length > limits.eventNameLength || !eventName.test(name)) {
      problems.push(`money_events: ${JSON.stringify(name)} is not an event name (1 to ${limits.eventNameLength} characters, no control characters)`);
    } else if (unkeepableNames.has(name)) {
      problems.push(`money_events: ${JSON.stringify(name)} cannot carry money (a name the settings store cannot keep)`);
    } else if (name === affiliateAttributedEvent) {
      problems.push(`money_events: ${name} is the attribution event and carries no money`);
    }
    if (!moneyKinds.includes(kind as MoneyKind)) {
      problems.push(`money_events.${name} must be one of ${moneyKinds.join(', ')}`);
    }
  }
  return problems;
}

/** Reads `Name=kind` pairs (as the command line takes them) into a mapping; the last `=` splits (kinds never hold one), so names may. */
export function parseMoneyEventPairs(pairs: string[]): { money_events: Record<string, string>; problems: string[] } {
  // A Map: a name such as `toString` or `__proto__` is an entry like any other (Object.fromEntries keeps it one).
  const money_events = new Map<string, string>();
  const problems: string[] = [];
  for (const pair of pairs) {
    const at = pair.lastIndexOf('=');
    if (at <= 0) {
      problems.push(`${JSON.stringify(pair)} must be EventName=kind`);
      continue;
    }
    const name = pair.slice(0, at);
    if (money_events.has(name)) problems.push(`money_events: ${JSON.stringify(name)} is named twice`);
    money_events.set(name, pair.slice(at + 1));
  }
  return { money_events: Object.fromEntries(money_events), problems };
}

/** The settings the funnel counts with: EUR and no money events unless the application says otherwise. */
export function moneySettingsOf(app: ProgrammeSettings): MoneySettings {
  return { currency: app.currency ?? defaultCurrency, money_events: app.money_events ?? {} };
}
