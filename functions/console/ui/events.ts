/**
 * The timeline's events in words, for people: what the service itself wrote
 * on a player's timeline (`urm_*`), and money events of the application's
 * mapping, whose amount the server read as the funnel does. An integrator's
 * other events have no sentence; the page shows their attributes as they are.
 */
import type { ConsoleAnswer } from '../answers';
import { formatMoney } from '../../ui/format';

type Attributes = Record<string, unknown>;
export type EventMoney = NonNullable<ConsoleAnswer<'ConsolePlayerTimeline'>['events'][number]['money']>;

/** The properties that say how money moved, first found wins: `Deposited 25.00 EUR by card`. */
const methodProperties = ['method', 'payment_method', 'provider'];

function methodOf(attributes: Attributes): string | undefined {
  for (const name of methodProperties) {
    const value = attributes[name];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return undefined;
}

const moneyWords: Record<EventMoney['kind'], (amount: string, method: string | undefined) => string> = {
  deposit: (amount, method) => `Deposited ${amount}${method ? ` by ${method}` : ''}`,
  withdrawal: (amount, method) => `Withdrew ${amount}${method ? ` to ${method}` : ''}`,
  bet: (amount) => `Bet ${amount}`,
  win: (amount) => `Won ${amount}`,
  bonus: (amount) => `Got a bonus of ${amount}`,
};

/** A money event as a sentence, in the currency it was made in. */
export function describeMoney(money: EventMoney, attributes: Attributes): string {
  return moneyWords[money.kind](formatMoney(money.amount, money.currency), methodOf(attributes));
}

/** What the page knows that the event only refers to by id: a channel's name, when the reader may list channels. */
export interface EventNames {
  channel?: (channelId: string) => string | undefined;
}

const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
const quoted = (value: unknown) => (value === undefined ? '' : JSON.stringify(value));
const segmentOf = (a: Attributes) => (typeof a.segment_name === 'string' ? `“${a.segment_name}”` : text(a.segment_id ?? '?'));

function throughChannel(a: Attributes, names: EventNames): string {
  const channel = typeof a.channel_id === 'string' ? names.channel?.(a.channel_id) : undefined;
  return channel === undefined ? `(channel ${text(a.channel_id ?? '?')})` : `through ${channel}`;
}

// A Map, not an object: an integrator's event named `__proto__` or `constructor` must find no sentence.
const sentences = new Map<string, (a: Attributes, names: EventNames) => string>(
  Object.entries({
    urm_back_office_action: (a) => {
      const who = text(a.user_email ?? a.user_id ?? 'Someone');
      if (a.action === 'set_attribute') return `${who} set ${text(a.attribute)} = ${quoted(a.value)}`;
      if (a.action === 'unset_attribute') return `${who} unset ${text(a.attribute)}`;
      return `${who}: ${text(a.action)}`;
    },
    urm_email_sent: (a, names) => `Email sent: “${text(a.subject ?? '')}” ${throughChannel(a, names)}`,
    // SES's word on a sent mail (functions/domain/email-events.ts).
    urm_email_delivered: (a, names) => `Email delivered ${throughChannel(a, names)}`,
    urm_email_bounced: (a) =>
      `Email bounced (${text(a.bounce_type ?? '?')}${a.bounce_subtype ? `, ${text(a.bounce_subtype)}` : ''})${a.bounce_type === 'Permanent' ? ': address suppressed' : ''}`,
    urm_email_complained: () => 'Email marked as spam: address suppressed',
    urm_push_sent: (a) => `Push sent: “${text(a.title ?? '')}” to ${text(a.sent ?? 0)} of ${text(a.tokens ?? 0)} devices`,
    urm_push_received: () => 'Push notification shown on a device',
    urm_push_clicked: () => 'Push notification clicked',
    urm_push_dismissed: () => 'Push notification dismissed',
    urm_segment_entered: (a) => `Entered segment ${segmentOf(a)}`,
    urm_segment_exited: (a) => `Left segment ${segmentOf(a)}`,
    urm_affiliate_attributed: (a) =>
      `Attributed to affiliate ${text(a.urm_aff_id ?? '?')}${a.urm_aff_link_id ? ` (link ${text(a.urm_aff_link_id)})` : ''}${a.urm_aff ? `, sub-id ${text(a.urm_aff)}` : ''}`,
  } satisfies Record<string, (a: Attributes, names: EventNames) => string>),
);

/** A sentence for a money or system event; for an unknown `urm_*` one, its name in words; undefined for an integrator's other events. */
export function describeEvent(event: string, attributes: Attributes, names: EventNames = {}, money?: EventMoney): string | undefined {
  if (money) return describeMoney(money, attributes);
  const sentence = sentences.get(event);
  if (sentence) return sentence(attributes, names);
  if (event.startsWith('urm_')) {
    const words = event.slice(4).replace(/_/g, ' ');
    return words.charAt(0).toUpperCase() + words.slice(1);
  }
  return undefined;
}

/** The attributes worth showing beside an event: not the ones every entry has. */
export function eventDetails(attributes: Attributes): [string, unknown][] {
  return Object.entries(attributes).filter(([name]) => !['app_id', 'profile_id', 'event', 'urm_date_time', 'urm_insert_id'].includes(name));
}
