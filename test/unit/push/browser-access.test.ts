import { describe, expect, test } from '@jest/globals';
import { assertBrowserMayWrite, browserEventRefusal, browserProfileRefusal } from '../../../functions/shared/domain/browser-access';
import { Forbidden } from '../../../functions/shared/domain/errors';

const token = JSON.stringify({ endpoint: 'https://push.example.com/send/abc', keys: { p256dh: 'BPk9', auth: 'c2VjcmV0' } });
const base = { app_id: 'app_1', profile_id: 'urm-anon-1', urm_date_time: '2026-11-21T10:00:00Z' };
const event = { ...base, event: 'urm_push_received', urm_insert_id: 'n-1:received', notification_id: 'n-1', url: 'https://site.example/x' };

describe('a browser key may write the push SDK profile records', () => {
  const allowed: [string, Record<string, unknown>][] = [
    ['creating the profile with its token', { urm_set_if_null: { urm_receives_notifications: true }, urm_unique_append: { urm_web_push_notification_token: [token] } }],
    ['removing a token', { urm_remove: { urm_web_push_notification_token: [token, 'not even JSON'] } }],
    ['pausing and resuming', { urm_set: { urm_receives_notifications: false } }],
    ['emptying every device', { urm_set: { urm_web_push_notification_token: [], urm_ios_push_notification_token: [], urm_android_push_notification_token: [] } }],
    ['merging an anonymous visitor', { profile_id: 'player-42', urm_merge: ['urm-anon-1', 'urm-anon-2'] }],
    ['unsetting a push attribute', { urm_unset: ['urm_receives_notifications'] }],
    ['the token at the top level', { urm_web_push_notification_token: [token], urm_insert_id: 'mine' }],
  ];
  for (const [name, fields] of allowed) {
    test(name, () => {
      expect(browserProfileRefusal({ ...base, ...fields })).toBe(undefined);
    });
  }
});

describe('a browser key may not write', () => {
  const refused: [string, Record<string, unknown>, RegExp][] = [
    ['a custom attribute', { country: 'MT' }, /country/],
    ['a custom attribute inside urm_set', { urm_set: { vip: true } }, /push attributes/],
    ['urm_add', { urm_add: { deposits: 5 } }, /urm_add/],
    ['urm_delete_profile', { urm_delete_profile: 'profile_id' }, /urm_delete_profile/],
    ['urm_ip', { urm_ip: '10.0.0.1' }, /urm_ip/],
    ['a merge of a known profile', { urm_merge: ['player-7'] }, /anonymous/],
    ['a custom name in urm_delete', { urm_delete: ['vip'] }, /push attributes/],
    ['a web token that is not a push subscription', { urm_unique_append: { urm_web_push_notification_token: ['abc'] } }, /push subscriptions/],
    ['a web token without keys', { urm_web_push_notification_token: [JSON.stringify({ endpoint: 'https://push.example.com/x' })] }, /push subscriptions/],
    ['an iOS token', { urm_unique_append: { urm_ios_push_notification_token: ['apns-token'] } }, /emptied/],
  ];
  for (const [name, fields, reason] of refused) {
    test(name, () => {
      expect(browserProfileRefusal({ ...base, ...fields }) ?? '').toMatch(reason);
    });
  }
});

describe('a browser key may write lifecycle events only', () => {
  test('received, clicked and dismissed with notification_id and url', () => {
    for (const name of ['urm_push_received', 'urm_push_clicked', 'urm_push_dismissed']) {
      expect(browserEventRefusal({ ...event, event: name })).toBe(undefined);
    }
    const { url: _url, ...withoutUrl } = event;
    expect(browserEventRefusal(withoutUrl)).toBe(undefined);
  });

  test('not another event', () => {
    expect(browserEventRefusal({ ...event, event: 'deposit' }) ?? '').toMatch(/lifecycle/);
  });

  test('not another attribute', () => {
    expect(browserEventRefusal({ ...event, amount: 5 }) ?? '').toMatch(/amount/);
  });

  test('not without a notification id, nor with a url that is not a string', () => {
    const { notification_id: _id, ...withoutId } = event;
    expect(browserEventRefusal(withoutId) ?? '').toMatch(/notification_id/);
    expect(browserEventRefusal({ ...event, url: 5 }) ?? '').toMatch(/url/);
  });
});

test('one refused record refuses the whole request with Forbidden', () => {
  expect(() => assertBrowserMayWrite('event', [event, { ...event, event: 'deposit' }])).toThrow(Forbidden);
  expect(() => assertBrowserMayWrite('profile', [{ ...base, country: 'MT' }])).toThrow(Forbidden);
  expect(() => assertBrowserMayWrite('event', [event])).not.toThrow();
});
