import { describe, expect, test } from '@jest/globals';
import type { AttributeValue } from '../../../functions/domain/attributes';
import {
  decide,
  isoWeek,
  localMoment,
  quietHoursEnd,
  type GateChannel,
  type GateInput,
  type MessagingSettings,
  type Purpose,
} from '../../../functions/domain/send-gate';

type Attributes = Record<string, AttributeValue | null | undefined>;

const NOW = new Date('2026-11-21T12:00:00.000Z');
const device = JSON.stringify({ endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: { p256dh: 'k', auth: 'a' } });

/** A player every marketing rule lets through, on both channels. */
const reachable: Attributes = {
  email: 'ada@example.com',
  urm_consent_email: true,
  urm_receives_notifications: true,
  urm_web_push_notification_token: [device],
  urm_rg_status: 'none',
};

function gate(
  change: Attributes,
  options: { channel?: GateChannel; purpose?: Purpose; topic?: string; settings?: MessagingSettings; now?: Date; sent?: { day: number; week: number } } = {},
) {
  const input: GateInput = {
    attributes: { ...reachable, ...change },
    channel: options.channel ?? 'email',
    purpose: options.purpose ?? 'marketing',
    settings: options.settings,
    now: options.now ?? NOW,
    sent: options.sent ?? { day: 0, week: 0 },
    ...(options.topic === undefined ? {} : { topic: options.topic }),
  };
  return decide(input);
}

const capped: MessagingSettings = { caps: { email: { daily: 1, weekly: 3 }, push: { daily: 2 } } };
const quiet: MessagingSettings = { quiet_hours: { start: '22:00', end: '08:00' } };

describe('the send gate: marketing rules in order', () => {
  test.each<[string, Attributes, Parameters<typeof gate>[1], string]>([
    [
      'a self-excluded player with no consent, unsubscribed, suppressed, no address, over the cap: rg_status first',
      { urm_rg_status: 'self_excluded', urm_consent_email: false, urm_unsubscribed_topics: ['promos'], urm_email_suppressed: 'bounce', email: null },
      { topic: 'promos', settings: capped, sent: { day: 5, week: 5 } },
      'rg_status',
    ],
    ['a self-excluded player with no consent at all', { urm_rg_status: 'self_excluded', urm_consent_email: undefined }, {}, 'rg_status'],
    ['no consent before an unsubscribed topic', { urm_consent_email: false, urm_unsubscribed_topics: ['promos'] }, { topic: 'promos' }, 'no_consent'],
    ['absent consent is no', { urm_consent_email: undefined }, {}, 'no_consent'],
    ['consent "true" as text is no', { urm_consent_email: 'true' }, {}, 'no_consent'],
    [
      'an unsubscribed topic before suppression',
      { urm_unsubscribed_topics: ['promos'], urm_email_suppressed: 'complaint' },
      { topic: 'promos' },
      'unsubscribed',
    ],
    ['suppression before the missing address', { urm_email_suppressed: 'bounce', email: '' }, {}, 'suppressed'],
    ['a missing address before the caps', { email: '   ' }, { settings: capped, sent: { day: 9, week: 9 } }, 'no_address'],
    [
      'an address under another attribute when the settings name it',
      { email: 'ada@example.com' },
      { settings: { email_attribute: 'contact_email' } },
      'no_address',
    ],
    ['the day cap before the week cap', {}, { settings: capped, sent: { day: 1, week: 3 } }, 'daily_cap'],
    ['the week cap once the day is under its cap', {}, { settings: capped, sent: { day: 0, week: 3 } }, 'weekly_cap'],
    ['a cap of 0 refuses the first', {}, { settings: { caps: { email: { daily: 0 } } } }, 'daily_cap'],
    ['push without notifications consent', { urm_receives_notifications: false }, { channel: 'push' }, 'no_consent'],
    ['push without a device', { urm_web_push_notification_token: [] }, { channel: 'push' }, 'no_address'],
    ['push counts its own cap, not email’s', {}, { channel: 'push', settings: capped, sent: { day: 2, week: 2 } }, 'daily_cap'],
  ])('%s', (_name, change, options, reason) => {
    expect(gate(change, options)).toMatchObject({ verdict: 'refuse', reason });
  });

  test.each<[string, Attributes, Parameters<typeof gate>[1]]>([
    ['a reachable player', {}, {}],
    ['a topic the player did not leave', { urm_unsubscribed_topics: ['sports'] }, { topic: 'promos' }],
    ['an unsubscribed topic does not stop a message without a topic', { urm_unsubscribed_topics: ['promos'] }, {}],
    ['an address under the attribute the settings name', { email: null, contact_email: 'ada@example.com' }, { settings: { email_attribute: 'contact_email' } }],
    ['under both caps', {}, { settings: capped, sent: { day: 0, week: 2 } }],
    ['a suppressed address does not stop push', { urm_email_suppressed: 'bounce' }, { channel: 'push' }],
  ])('sends to %s', (_name, change, options) => {
    expect(gate(change, options)).toEqual({ verdict: 'send' });
  });

  test('no such player is refused', () => {
    expect(decide({ attributes: undefined, channel: 'email', purpose: 'marketing', settings: undefined, now: NOW, sent: { day: 0, week: 0 } })).toMatchObject({
      verdict: 'refuse',
      reason: 'no_player',
    });
  });

  test('quiet hours come before the caps: a capped player in the window is deferred', () => {
    expect(gate({}, { settings: { ...quiet, ...capped }, now: new Date('2026-11-21T23:00:00Z'), sent: { day: 1, week: 3 } })).toMatchObject({
      verdict: 'defer',
    });
  });
});

describe('the send gate: RG status and urm_rg_until', () => {
  test.each<[string, Attributes, { verdict: string; reason?: string; detail?: string }]>([
    ['a cool-off whose end has passed counts as none', { urm_rg_status: 'cool_off', urm_rg_until: '2026-11-21T11:59:59Z' }, { verdict: 'send' }],
    ['an exclusion ending exactly now counts as none', { urm_rg_status: 'self_excluded', urm_rg_until: NOW.toISOString() }, { verdict: 'send' }],
    [
      'a future end refuses, saying until when',
      { urm_rg_status: 'self_excluded', urm_rg_until: '2027-01-01T00:00:00Z' },
      { verdict: 'refuse', reason: 'rg_status', detail: 'self-excluded until 2027-01-01' },
    ],
    [
      'a cool-off in force',
      { urm_rg_status: 'cool_off', urm_rg_until: '2026-11-28T00:00:00Z' },
      { verdict: 'refuse', reason: 'rg_status', detail: 'cooling off until 2026-11-28' },
    ],
    [
      'blocked ignores a passed until',
      { urm_rg_status: 'blocked', urm_rg_until: '2020-01-01T00:00:00Z' },
      { verdict: 'refuse', reason: 'rg_status', detail: 'blocked' },
    ],
    ['an exclusion without an end', { urm_rg_status: 'self_excluded' }, { verdict: 'refuse', reason: 'rg_status', detail: 'self-excluded' }],
    ['an unknown status is refused', { urm_rg_status: 'paused' }, { verdict: 'refuse', reason: 'rg_status', detail: 'RG status paused' }],
    ['an unreadable until is refused', { urm_rg_status: 'cool_off', urm_rg_until: 'soon' }, { verdict: 'refuse', reason: 'rg_status' }],
    ['an absent status is none', { urm_rg_status: undefined }, { verdict: 'send' }],
    ['a status unset to null is none', { urm_rg_status: null }, { verdict: 'send' }],
  ])('%s', (_name, change, expected) => {
    expect(gate(change)).toMatchObject(expected);
  });
});

describe('the send gate: local day and ISO week for the caps', () => {
  test.each<[string, string, string, { day: string; week: string; minutes: number }]>([
    ['23:59 on New Year’s Eve in Auckland', '2026-12-31T10:59:00Z', 'Pacific/Auckland', { day: '2026-12-31', week: '2026-W53', minutes: 1439 }],
    ['00:00 on New Year’s Day in Auckland, still UTC’s 31st', '2026-12-31T11:00:00Z', 'Pacific/Auckland', { day: '2027-01-01', week: '2026-W53', minutes: 0 }],
    ['the same instant in UTC', '2026-12-31T11:00:00Z', 'UTC', { day: '2026-12-31', week: '2026-W53', minutes: 660 }],
    ['Sunday 23:59 UTC ends the week', '2026-11-22T23:59:00Z', 'UTC', { day: '2026-11-22', week: '2026-W47', minutes: 1439 }],
    ['Monday 00:00 UTC starts the next', '2026-11-23T00:00:00Z', 'UTC', { day: '2026-11-23', week: '2026-W48', minutes: 0 }],
    ['Monday already in Auckland while Sunday in UTC', '2026-11-22T11:00:00Z', 'Pacific/Auckland', { day: '2026-11-23', week: '2026-W48', minutes: 0 }],
  ])('%s', (_name, at, zone, expected) => {
    expect(localMoment(new Date(at), zone)).toEqual(expected);
  });

  test.each([
    ['2026-12-31', '2026-W53'],
    ['2027-01-03', '2026-W53'],
    ['2027-01-04', '2027-W01'],
    ['2021-01-03', '2020-W53'],
    ['2024-12-30', '2025-W01'],
    ['2026-01-01', '2026-W01'],
  ])('%s is in ISO week %s', (day, week) => {
    expect(isoWeek(day)).toBe(week);
  });
});

describe('the send gate: quiet hours in the player’s local time', () => {
  test.each<[string, string, string, MessagingSettings['quiet_hours'], string | undefined]>([
    ['before midnight in a window across midnight', '2026-11-21T23:00:00Z', 'UTC', { start: '22:00', end: '08:00' }, '2026-11-22T08:00:00.000Z'],
    ['after midnight in the same window', '2026-11-22T07:59:30Z', 'UTC', { start: '22:00', end: '08:00' }, '2026-11-22T08:00:00.000Z'],
    ['at the window’s end: outside', '2026-11-22T08:00:00Z', 'UTC', { start: '22:00', end: '08:00' }, undefined],
    ['at its start: inside', '2026-11-21T22:00:00Z', 'UTC', { start: '22:00', end: '08:00' }, '2026-11-22T08:00:00.000Z'],
    ['a daytime window', '2026-11-21T13:00:00Z', 'UTC', { start: '12:00', end: '14:00' }, '2026-11-21T14:00:00.000Z'],
    ['start equal to end is no window', '2026-11-21T23:00:00Z', 'UTC', { start: '22:00', end: '22:00' }, undefined],
    [
      'a night the clocks go forward in Malta: 08:00 CEST',
      '2026-03-28T22:00:00Z',
      'Europe/Malta',
      { start: '22:00', end: '08:00' },
      '2026-03-29T06:00:00.000Z',
    ],
    ['a night the clocks go back in Malta: 08:00 CET', '2026-10-24T21:00:00Z', 'Europe/Malta', { start: '22:00', end: '08:00' }, '2026-10-25T07:00:00.000Z'],
    [
      'an end the clocks jump over ends at the jump (03:00 CEST)',
      '2026-03-28T23:00:00Z',
      'Europe/Malta',
      { start: '23:00', end: '02:30' },
      '2026-03-29T01:00:00.000Z',
    ],
    ['inside the hour before that jump: the same end', '2026-03-29T00:30:00Z', 'Europe/Malta', { start: '01:00', end: '02:30' }, '2026-03-29T01:00:00.000Z'],
  ])('%s', (_name, at, zone, window, ends) => {
    expect(quietHoursEnd(new Date(at), zone, window)?.toISOString()).toBe(ends);
  });

  test('a deferral names the window’s end and the zone', () => {
    expect(gate({}, { settings: quiet, now: new Date('2026-11-21T23:00:00Z') })).toEqual({
      verdict: 'defer',
      reason: 'quiet_hours',
      until: new Date('2026-11-22T08:00:00.000Z'),
      detail: 'quiet hours until 08:00 (UTC)',
    });
  });

  test.each<[string, Attributes, MessagingSettings, string]>([
    ['the player’s urm_timezone over the application’s', { urm_timezone: 'Pacific/Auckland' }, { ...quiet, time_zone: 'UTC' }, 'defer'],
    ['the application’s zone for a player without one', {}, { ...quiet, time_zone: 'Pacific/Auckland' }, 'defer'],
    ['UTC when nobody names a zone', {}, quiet, 'send'],
    ['an unknown urm_timezone falls back to the application’s', { urm_timezone: 'Mars/Olympus' }, { ...quiet, time_zone: 'UTC' }, 'send'],
  ])('noon UTC (01:00 in Auckland): %s', (_name, change, settings, verdict) => {
    expect(gate(change, { settings, now: NOW })).toMatchObject({ verdict });
  });
});

describe('the send gate: transactional messages', () => {
  const everything: MessagingSettings = { ...quiet, caps: { email: { daily: 0, weekly: 0 }, push: { daily: 0, weekly: 0 } } };
  const night = new Date('2026-11-21T23:00:00Z');

  test.each<[string, Attributes, GateChannel]>([
    [
      'an excluded player with no consent, unsubscribed, in quiet hours, over every cap (email)',
      { urm_rg_status: 'self_excluded', urm_consent_email: false, urm_unsubscribed_topics: ['promos'] },
      'email',
    ],
    ['a blocked player (push)', { urm_rg_status: 'blocked' }, 'push'],
    ['a push device that never answered the notifications question', { urm_receives_notifications: undefined }, 'push'],
  ])('reach %s', (_name, change, channel) => {
    expect(gate(change, { channel, purpose: 'transactional', topic: 'promos', settings: everything, now: night, sent: { day: 9, week: 9 } })).toEqual({
      verdict: 'send',
    });
  });

  test.each<[string, Attributes, GateChannel, string]>([
    ['never a bounced address', { urm_email_suppressed: 'bounce' }, 'email', 'suppressed'],
    ['never an address that complained', { urm_email_suppressed: 'complaint', urm_rg_status: 'self_excluded' }, 'email', 'suppressed'],
    ['nothing without an address', { email: undefined }, 'email', 'no_address'],
    ['no push to a device that turned notifications off', { urm_receives_notifications: false }, 'push', 'no_consent'],
    ['no push without a device', { urm_web_push_notification_token: undefined }, 'push', 'no_address'],
  ])('%s', (_name, change, channel, reason) => {
    expect(gate(change, { channel, purpose: 'transactional' })).toMatchObject({ verdict: 'refuse', reason });
  });
});
