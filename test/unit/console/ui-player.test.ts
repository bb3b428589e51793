/** What the player's page and the Rejections page decide from the data (functions/console/ui/pages/player.tsx, rejections.tsx). */
import { describe, expect, test } from '@jest/globals';
import { playerBadges, pushUnavailable } from '../../../functions/console/ui/pages/player';
import { recordFields } from '../../../functions/console/ui/pages/rejections';

describe("the player's badges", () => {
  test('show a responsible-gaming status and consents only when the player has such attributes', () => {
    expect(playerBadges([{ name: 'country', value: 'MT' }])).toEqual({ rg: [], consent: [] });
    expect(
      playerBadges([
        { name: 'rg_status', value: 'cooling_off' },
        { name: 'email_consent', value: true },
        { name: 'consent_sms', value: false },
        { name: 'urm_receives_notifications', value: false },
        { name: 'self_excluded', value: true },
      ]),
    ).toEqual({
      rg: ['cooling_off', 'self_excluded'],
      consent: [
        ['Email', true],
        ['SMS', false],
        ['Push', false],
      ],
    });
  });

  test('take no badge from a value of the wrong type or a name that only resembles one', () => {
    expect(
      playerBadges([
        { name: 'email_consent', value: 'yes' },
        { name: 'rg_status', value: 3 },
        { name: 'self_excluded', value: false },
        { name: 'my_email_consent_note', value: true },
      ]),
    ).toEqual({ rg: [], consent: [] });
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
