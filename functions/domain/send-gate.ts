/**
 * The send gate (docs/api.md, "The send gate"): for one player, one channel,
 * one topic and one purpose, whether a message goes now, later, or never.
 * Pure: the caller reads the player consistently at send time and the
 * marketing messages already sent in the player's current local day and week,
 * and passes them in; this module decides.
 *
 * Rules, in order. Marketing:
 *  1. RG status not `none` (a `cool_off` or `self_excluded` whose `urm_rg_until` has passed counts as `none`) → refuse `rg_status`;
 *  2. no consent for the channel (`urm_consent_email` / `urm_receives_notifications` not `true`; absent is no) → refuse `no_consent`;
 *  3. the topic is in `urm_unsubscribed_topics` → refuse `unsubscribed`;
 *  4. the address is suppressed (`urm_email_suppressed`: a bounce or complaint) → refuse `suppressed`;
 *  5. no address (email) or no device (push) → refuse `no_address`;
 *  6. inside the application's quiet hours, in the player's local time → defer to the window's end;
 *  7. the day's cap reached → refuse `daily_cap`; then the week's → refuse `weekly_cap`.
 * Transactional: 4 and 5 only (and, for push, a device that said no to
 * notifications), so an account message reaches an excluded player, never a
 * bounced address.
 */
import type { AttributeValue } from './attributes';

export const purposes = ['marketing', 'transactional'] as const;
export type Purpose = (typeof purposes)[number];

/** The channels urm sends on. */
export const gateChannels = ['email', 'push'] as const;
export type GateChannel = (typeof gateChannels)[number];

/** Why a message was refused, in the order the rules are tried. */
export const refusalReasons = ['no_player', 'rg_status', 'no_consent', 'unsubscribed', 'suppressed', 'no_address', 'daily_cap', 'weekly_cap'] as const;
export type RefusalReason = (typeof refusalReasons)[number];
/** Why a message was deferred. */
export const DEFERRAL_REASON = 'quiet_hours';
/** Every reason `urm_message_suppressed` may carry: a refusal's or a deferral's. */
export const suppressionReasons = [...refusalReasons, DEFERRAL_REASON] as const;
export type SuppressionReason = (typeof suppressionReasons)[number];

// ---- names on the stream ------------------------------------------------

/** A refusal or a deferral, on the player's timeline: `channel`, `purpose`, `reason`, `detail`, and `deferred_until` for a deferral. */
export const MESSAGE_SUPPRESSED_EVENT = 'urm_message_suppressed';
/** The player left a topic, or all marketing email, through the unsubscribe link: `topic` (absent: all), `method` (`one_click` or `page`). */
export const UNSUBSCRIBED_EVENT = 'urm_unsubscribed';
export const EMAIL_BOUNCED_EVENT = 'urm_email_bounced';
export const EMAIL_COMPLAINED_EVENT = 'urm_email_complained';
export const EMAIL_DELIVERED_EVENT = 'urm_email_delivered';
/** The profile attribute a hard bounce or a complaint sets: `bounce` or `complaint`. Marketing and transactional mail both stop. */
export const EMAIL_SUPPRESSED_ATTRIBUTE = 'urm_email_suppressed';
export const emailSuppressions = ['bounce', 'complaint'] as const;

// ---- settings -----------------------------------------------------------

export interface ChannelCaps {
  /** Marketing messages per player per local day on this channel; absent: no cap. */
  daily?: number;
  /** Per local week (Monday to Sunday); absent: no cap. */
  weekly?: number;
}

/** An application's messaging settings (the console's Settings, "Messaging"); every field optional. */
export interface MessagingSettings {
  caps?: Partial<Record<GateChannel, ChannelCaps>>;
  /** Local times `HH:MM`; the window is [start, end), across midnight when start > end; equal: none. */
  quiet_hours?: { start: string; end: string };
  /** IANA time zone of players without `urm_timezone`; default UTC. */
  time_zone?: string;
  /** The topics a player may leave, each with the label the preference page shows. */
  topics?: { name: string; label: string }[];
  /** The attribute holding the email address (default `email`) and the phone (default `phone`). */
  email_attribute?: string;
  phone_attribute?: string;
  /** A broadcast's messages per second (default 10): at most the account's SES send rate (docs/api.md, "Broadcasts"). */
  broadcast_rate?: number;
}

export const DEFAULT_TIME_ZONE = 'UTC';
export const DEFAULT_EMAIL_ATTRIBUTE = 'email';
export const DEFAULT_PHONE_ATTRIBUTE = 'phone';
export const messagingLimits = { topics: 20, topicLabelLength: 80, capMax: 1000, broadcastRateMax: 500 } as const;

const hhmm = { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'a local time, HH:MM (24 h)' } as const;
const caps = {
  type: 'object',
  additionalProperties: false,
  properties: {
    daily: { type: 'integer', minimum: 0, maximum: messagingLimits.capMax },
    weekly: { type: 'integer', minimum: 0, maximum: messagingLimits.capMax },
  },
} as const;

/** The JSON Schema of MessagingSettings (the console's and the command line's body). Attribute names are checked by the back office. */
export const messagingSettingsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    caps: { type: 'object', additionalProperties: false, properties: { email: caps, push: caps } },
    quiet_hours: { type: 'object', additionalProperties: false, required: ['start', 'end'], properties: { start: hhmm, end: hhmm } },
    time_zone: { type: 'string', format: 'iana-time-zone', maxLength: 64 },
    topics: {
      type: 'array',
      maxItems: messagingLimits.topics,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'label'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 64, format: 'urm-topic' },
          label: { type: 'string', minLength: 1, maxLength: messagingLimits.topicLabelLength },
        },
      },
    },
    email_attribute: { type: 'string', minLength: 1, maxLength: 255 },
    phone_attribute: { type: 'string', minLength: 1, maxLength: 255 },
    broadcast_rate: { type: 'integer', minimum: 1, maximum: messagingLimits.broadcastRateMax },
  },
} as const;

export const emailAttributeOf = (settings: MessagingSettings | undefined): string => settings?.email_attribute ?? DEFAULT_EMAIL_ATTRIBUTE;
export const phoneAttributeOf = (settings: MessagingSettings | undefined): string => settings?.phone_attribute ?? DEFAULT_PHONE_ATTRIBUTE;

// ---- local time ---------------------------------------------------------

export interface LocalMoment {
  /** `YYYY-MM-DD` in the zone. */
  day: string;
  /** `YYYY-Www`: the ISO week (Monday first) the local day belongs to. */
  week: string;
  /** Minutes since local midnight. */
  minutes: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    if (formatters.size > 500) formatters.clear();
    formatters.set(timeZone, format);
  }
  return format;
}

/** The ISO week of a calendar day. */
export function isoWeek(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  const weekday = (date.getUTCDay() + 6) % 7; // Monday 0
  const thursday = new Date(date.getTime() + (3 - weekday) * 86_400_000);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 / 7) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** What the clock says at `at` in `timeZone`. */
export function localMoment(at: Date, timeZone: string): LocalMoment {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  const day = `${parts.year}-${parts.month}-${parts.day}`;
  return { day, week: isoWeek(day), minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

/** The zone a player's local time is read in: `urm_timezone` when it names one, else the application's, else UTC. */
export function playerTimeZone(attributes: Record<string, AttributeValue | null | undefined>, settings: MessagingSettings | undefined): string {
  const own = attributes.urm_timezone;
  if (typeof own === 'string' && validTimeZone(own)) return own;
  return settings?.time_zone ?? DEFAULT_TIME_ZONE;
}

function validTimeZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/**
 * When the quiet hours around `now` end in `timeZone`, or undefined when `now`
 * is outside them. The end is the first instant whose local time is the
 * window's end (a daylight-saving jump is followed).
 */
export function quietHoursEnd(now: Date, timeZone: string, window: MessagingSettings['quiet_hours']): Date | undefined {
  if (!window) return undefined;
  const start = minutesOf(window.start);
  const end = minutesOf(window.end);
  if (start === end) return undefined;
  const readsAt = (at: number) => localMoment(new Date(at), timeZone).minutes;
  const insideAt = (minutes: number) => (start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end);
  const local = localMoment(now, timeZone).minutes;
  if (!insideAt(local)) return undefined;
  const wholeMinute = now.getTime() - (now.getTime() % 60_000);
  let candidate = wholeMinute + ((end - local + 1440) % 1440) * 60_000;
  let previous = candidate;
  // Across a daylight-saving change the local clock moved: step to where it reads the end.
  for (let step = 0; step < 3; step++) {
    const off = ((end - readsAt(candidate) + 1440 + 720) % 1440) - 720;
    if (off === 0) break;
    previous = candidate;
    candidate += off * 60_000;
  }
  if (readsAt(candidate) !== end) {
    // The end's local time does not exist that day (the clock jumped over it): the window ends at the jump,
    // between the two instants the steps swung between (still inside, already past).
    let [lo, hi] = [Math.min(previous, candidate), Math.max(previous, candidate)];
    while (hi - lo > 60_000) {
      const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
      if (insideAt(readsAt(mid))) lo = mid;
      else hi = mid;
    }
    candidate = hi;
  }
  return new Date(Math.max(candidate, now.getTime() + 1));
}

// ---- what was sent (the caps) ------------------------------------------

/** Port: the marketing messages sent per player and channel in the player's local day and ISO week. */
export interface SentCounts {
  /** What was sent in `moment`'s day and week (0 for a day or week not yet counted). */
  read(appId: string, profileId: string, channel: GateChannel, moment: LocalMoment): Promise<{ day: number; week: number }>;
  /** Counts one message if `caps` allow it, atomically: false (nothing counted) when the day's or the week's cap is reached. */
  claim(appId: string, profileId: string, channel: GateChannel, moment: LocalMoment, caps: ChannelCaps | undefined): Promise<boolean>;
  /** Takes back a claim whose message did not go out. */
  release(appId: string, profileId: string, channel: GateChannel, moment: LocalMoment): Promise<void>;
}

// ---- the decision -------------------------------------------------------

export interface GateInput {
  /** The player's attributes, read consistently at send time; undefined: no such player. */
  attributes: Record<string, AttributeValue | null | undefined> | undefined;
  channel: GateChannel;
  /** The message's topic (one of the application's), if it has one. */
  topic?: string;
  purpose: Purpose;
  settings: MessagingSettings | undefined;
  now: Date;
  /** Marketing messages already sent on this channel in the player's current local day and ISO week. */
  sent: { day: number; week: number };
}

export type GateAnswer =
  | { verdict: 'send' }
  | { verdict: 'defer'; reason: typeof DEFERRAL_REASON; until: Date; detail: string }
  | { verdict: 'refuse'; reason: RefusalReason; detail: string };

const rgWords: Record<string, string> = { cool_off: 'cooling off', self_excluded: 'self-excluded', blocked: 'blocked' };
const refuse = (reason: RefusalReason, detail: string): GateAnswer => ({ verdict: 'refuse', reason, detail });
const filled = (value: unknown): value is string => typeof value === 'string' && value.trim().length > 0;

/** The RG status that stops marketing now, with its end, or undefined when it is `none` (or has ended). */
export function activeRgStatus(attributes: Record<string, AttributeValue | null | undefined>, now: Date): { status: string; until?: string } | undefined {
  const status = attributes.urm_rg_status;
  if (status === undefined || status === null || status === 'none') return undefined;
  const until = attributes.urm_rg_until;
  if (typeof until === 'string' && status !== 'blocked') {
    const ends = Date.parse(until);
    if (!Number.isNaN(ends) && ends <= now.getTime()) return undefined;
    return { status: String(status), until };
  }
  // Unknown values count as excluded: the gate fails closed.
  return { status: String(status) };
}

/** The RG status in words, as a refusal's detail says it. */
export function rgDetail(rg: { status: string; until?: string }): string {
  const words = rgWords[rg.status] ?? `RG status ${rg.status}`;
  return rg.until ? `${words} until ${rg.until.slice(0, 10)}` : words;
}

/** Whether the player has somewhere to send to on the channel: an address, or a web push device. */
export function hasAddress(
  attributes: Record<string, AttributeValue | null | undefined>,
  channel: GateChannel,
  settings: MessagingSettings | undefined,
): boolean {
  if (channel === 'email') return filled(attributes[emailAttributeOf(settings)]);
  // urm sends web push only.
  const tokens = attributes.urm_web_push_notification_token;
  return Array.isArray(tokens) && tokens.length > 0;
}

export function decide(input: GateInput): GateAnswer {
  const { attributes, channel, purpose, settings, now } = input;
  if (!attributes) return refuse('no_player', 'no such player');
  const marketing = purpose === 'marketing';

  if (marketing) {
    const rg = activeRgStatus(attributes, now);
    if (rg) return refuse('rg_status', rgDetail(rg));
    const consent = channel === 'email' ? attributes.urm_consent_email : attributes.urm_receives_notifications;
    if (consent !== true) {
      return refuse(
        'no_consent',
        channel === 'email' ? 'no email consent (urm_consent_email is not true)' : 'no push consent (urm_receives_notifications is not true)',
      );
    }
    const left = attributes.urm_unsubscribed_topics;
    if (input.topic !== undefined && Array.isArray(left) && left.includes(input.topic)) return refuse('unsubscribed', `unsubscribed from ${input.topic}`);
  } else if (channel === 'push' && attributes.urm_receives_notifications === false) {
    // The device's own off switch: honoured for every purpose.
    return refuse('no_consent', 'notifications are off (urm_receives_notifications is false)');
  }
  if (channel === 'email' && filled(attributes[EMAIL_SUPPRESSED_ATTRIBUTE])) {
    return refuse('suppressed', `the address is suppressed after a ${String(attributes[EMAIL_SUPPRESSED_ATTRIBUTE])}`);
  }
  if (!hasAddress(attributes, channel, settings)) {
    return refuse('no_address', channel === 'email' ? `no email address (attribute ${emailAttributeOf(settings)})` : 'no web push device');
  }
  if (!marketing) return { verdict: 'send' };

  const zone = playerTimeZone(attributes, settings);
  const until = quietHoursEnd(now, zone, settings?.quiet_hours);
  if (until) return { verdict: 'defer', reason: DEFERRAL_REASON, until, detail: `quiet hours until ${settings?.quiet_hours?.end} (${zone})` };
  const cap = settings?.caps?.[channel];
  if (cap?.daily !== undefined && input.sent.day >= cap.daily) return refuse('daily_cap', `${cap.daily} per day reached`);
  if (cap?.weekly !== undefined && input.sent.week >= cap.weekly) return refuse('weekly_cap', `${cap.weekly} per week reached`);
  return { verdict: 'send' };
}
