/** What the player's page and the Rejections page decide from the data (functions/console/ui/pages/player.tsx, rejections.tsx). */
import { describe, expect, test } from '@jest/globals';
import { playerBadges, pushUnavailable, timelineQuery } from '../../../functions/console/ui/pages/player';
import { activityKpis, ago, playerName } from '../../../functions/console/ui/pages/player-facts';
import { hasMoney, moneyKpis } from '../../../functions/console/ui/pages/player-money';
import { recordFields } from '../../../functions/console/ui/pages/rejections';

describe("the player's badges", () => {
  const now = Date.parse('2026-11-26T12:00:00Z');

  test('a player with no CRM attribute reads RG none and no email or SMS consent', () => {
    expect(playerBadges([{ name: 'country', value: 'MT' }], now)).toEqual({
      rg: { status: 'none', ended: false },
      consent: [
        ['Email', undefined],
        ['SMS', undefined],
      ],
    });
  });

  test('show the stored RG status with its end, each consent as stored, and push when it is stated', () => {
    expect(
      playerBadges(
        [
          { name: 'urm_rg_status', value: 'cool_off' },
          { name: 'urm_rg_until', value: '2026-12-24T00:00:00Z' },
          { name: 'urm_consent_email', value: true },
          { name: 'urm_consent_sms', value: false },
          { name: 'urm_receives_notifications', value: false },
        ],
        now,
      ),
    ).toEqual({
      rg: { status: 'cool_off', until: '2026-12-24T00:00:00Z', ended: false },
      consent: [
        ['Email', true],
        ['SMS', false],
        ['Push', false],
      ],
    });
  });

  test('an exclusion whose end has passed is shown as ended; a status unset to null reads none', () => {
    const ended = playerBadges(
      [
        { name: 'urm_rg_status', value: 'self_excluded' },
        { name: 'urm_rg_until', value: '2026-11-01T00:00:00Z' },
      ],
      now,
    );
    const unset = playerBadges([{ name: 'urm_rg_status', value: null }], now);

    expect(ended.rg).toEqual({ status: 'self_excluded', until: '2026-11-01T00:00:00Z', ended: true });
    expect(unset.rg).toEqual({ status: 'none', ended: false });
  });

  test('an integrator attribute that only resembles a CRM one makes no badge', () => {
    expect(
      playerBadges(
        [
          { name: 'email_consent', value: true },
          { name: 'rg_status', value: 'self_excluded' },
        ],
        now,
      ).rg.status,
    ).toBe('none');
  });
});

describe('why no push can be sent', () => {
  const web = { platform: 'web' as const, service: 'fcm.googleapis.com' };

  test('a player without a web push device, or who said no to notifications, cannot be sent one; others can', () => {
    expect(pushUnavailable({ push: { devices: [], receives_notifications: null } })).toMatch(/the player has no web push device/);
    expect(pushUnavailable({ push: { devices: [{ platform: 'ios', token_end: 'abc123' }], receives_notifications: true } })).toMatch(
      /the player has no web push device/,
    );
    expect(pushUnavailable({ push: { devices: [web], receives_notifications: false } })).toMatch(/does not receive notifications/);
    expect(pushUnavailable({ push: { devices: [web], receives_notifications: null } })).toBeUndefined();
  });
});

describe("a rejected record's fields", () => {
  test("are the record's own but app_id; a record cut to fit, or not an object, has none", () => {
    expect(recordFields('{"app_id":"a","profile_id":"p","urm_add":{"n":1}}')).toEqual([
      ['profile_id', 'p'],
      ['urm_add', { n: 1 }],
    ]);
    expect(recordFields('{"app_id":"a","profile_id":"p","na')).toBeUndefined();
    expect(recordFields('[1]')).toBeUndefined();
  });
});

describe("the player's money cards", () => {
  const none = { currency: 'EUR', deposits: '0', withdrawals: '0', ngr: '0', deposit_count: 0, first_deposit: null, last_deposit: null };

  test('a player without money events has no cards', () => {
    expect(hasMoney(none)).toBe(false);
    expect(hasMoney({ ...none, ngr: '-5' })).toBe(true);
  });

  test('show each figure with its currency, and the first and last deposit with their days', () => {
    const kpis = moneyKpis({
      ...none,
      deposits: '1234.5',
      withdrawals: '20',
      ngr: '-3.25',
      deposit_count: 3,
      first_deposit: { day: '2026-11-02', amount: '1000' },
      last_deposit: null,
    });

    expect(kpis.map(({ label, value, unit, note }) => [label, typeof value === 'string' ? value : 'markup', unit, note])).toEqual([
      ['Deposits', '1,234.50', 'EUR', undefined],
      ['Withdrawals', '20.00', 'EUR', undefined],
      ['NGR', '\u22123.25', 'EUR', undefined],
      ['Number of deposits', '3', undefined, undefined],
      ['First deposit', '1,000.00', 'EUR', '2 Nov 2026'],
      ['Last deposit', 'markup', undefined, undefined],
    ]);
  });
});

describe("the player's name", () => {
  test('is first and last name, else name, else none (the page then shows the id)', () => {
    expect(
      playerName([
        { name: 'first_name', value: 'Ada' },
        { name: 'last_name', value: 'Lovelace' },
        { name: 'name', value: 'ada99' },
      ]),
    ).toBe('Ada Lovelace');
    expect(playerName([{ name: 'last_name', value: 'Lovelace' }])).toBe('Lovelace');
    expect(playerName([{ name: 'name', value: ' ada99 ' }])).toBe('ada99');
    expect(
      playerName([
        { name: 'first_name', value: '  ' },
        { name: 'name', value: 7 },
      ]),
    ).toBeUndefined();
  });
});

describe("the player's activity cards", () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  const none = { last_event: null, last_login: null, login_searched_to: null, first_event_at: null, event_names: [] };
  const shown = (kpis: ReturnType<typeof activityKpis>) => kpis.map((kpi) => [kpi.id, kpi.label, typeof kpi.value === 'string' ? kpi.value : 'markup']);

  test('show the last login and the days since the first event', () => {
    const kpis = activityKpis(
      {
        ...none,
        last_login: { at: '2026-11-23T12:00:00Z' },
        last_event: { event: 'spin', at: '2026-11-26T11:00:00Z' },
        first_event_at: '2026-10-27T12:00:00Z',
      },
      now,
    );

    expect(shown(kpis)).toEqual([
      ['kpi-last-login', 'Last login', '3 days ago'],
      ['kpi-days-registered', 'Days since registration', '30'],
    ]);
  });

  test('without a login: the last event, or, when the bounded search stopped, how long none has come', () => {
    const lastEvent = activityKpis({ ...none, last_event: { event: 'spin', at: '2026-11-26T09:00:00Z' }, first_event_at: '2026-11-26T09:00:00Z' }, now);
    const searched = activityKpis({ ...none, last_event: { event: 'spin', at: '2026-11-26T09:00:00Z' }, login_searched_to: '2026-11-16T10:00:00Z' }, now);

    expect(shown(lastEvent)).toEqual([
      ['kpi-last-event', 'Last event', '3 hours ago'],
      ['kpi-days-registered', 'Days since registration', '0'],
    ]);
    expect(shown(searched)[0]).toEqual(['kpi-last-login', 'Last login', 'More than 10 days ago']);
  });

  test('a player without events has neither', () => {
    expect(shown(activityKpis(none, now))).toEqual([
      ['kpi-last-login', 'Last login', 'markup'],
      ['kpi-days-registered', 'Days since registration', 'markup'],
    ]);
  });

  test('times read as people say them', () => {
    expect([ago('2026-11-26T11:59:30Z', now), ago('2026-11-26T11:55:00Z', now), ago('2026-11-25T11:00:00Z', now)]).toEqual([
      'just now',
      '5 minutes ago',
      'yesterday',
    ]);
  });
});

describe("the timeline's filters", () => {
  test("send the name trimmed, and the dates as the start of the from day and of the day after the to day, in the reader's zone", () => {
    const query = timelineQuery({ name: ' Login ', from: '2026-11-01', to: '2026-11-03' });

    expect(query).toEqual({ name: 'Login', from: new Date(2026, 10, 1).toISOString(), to: new Date(2026, 10, 4).toISOString() });
  });

  test('send nothing for empty fields', () => {
    expect(timelineQuery({ name: '', from: '', to: '' })).toEqual({});
  });
});
