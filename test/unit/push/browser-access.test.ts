import { describe, expect, test } from '@jest/globals';
import { assertBrowserMayWrite, assertBrowserProvesIdentity, browserEventRefusal, browserProfileRefusal } from '../../../functions/domain/browser-access';
import { Forbidden } from '../../../functions/domain/errors';
import { profileIdProof, proofMatches, type IdentityKeyring, type IdentityVerification } from '../../../functions/domain/identity';

const token = JSON.stringify({ endpoint: 'https://push.example.com/send/abc', keys: { p256dh: 'BPk9', auth: 'c2VjcmV0' } });
const base = { app_id: 'app_1', profile_id: 'urm-anon-1', urm_date_time: '2026-11-21T10:00:00Z' };
const event = { ...base, event: 'urm_push_received', urm_insert_id: 'n-1:received', notification_id: 'n-1', url: 'https://site.example/x' };

describe('a browser key may write the push SDK profile records', () => {
  const allowed: [string, Record<string, unknown>][] = [
    [
      'creating the profile with its token',
      { urm_set_if_null: { urm_receives_notifications: true }, urm_unique_append: { urm_web_push_notification_token: [token] } },
    ],
    ['removing the tokens it presents whole', { urm_remove: { urm_web_push_notification_token: [token, token.replace('abc', 'old')] } }],
    ['pausing and resuming', { urm_set: { urm_receives_notifications: false } }],
    [
      'emptying every device',
      { urm_set: { urm_web_push_notification_token: [], urm_ios_push_notification_token: [], urm_android_push_notification_token: [] } },
    ],
    ['merging an anonymous visitor', { profile_id: 'player-42', urm_merge: ['urm-anon-1', 'urm-anon-2'] }],
    ['unsetting a push attribute', { urm_unset: ['urm_receives_notifications'] }],
    ['emptying the web tokens at the top level', { urm_web_push_notification_token: [], urm_insert_id: 'mine' }],
    ['its proof', { profile_id: 'player-42', urm_profile_id_hash: 'ab'.repeat(32), urm_set: { urm_receives_notifications: true } }],
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
    ['a custom name in urm_delete', { urm_delete: ['vip'] }, /urm_receives_notifications/],
    ['a web token that is not a push subscription', { urm_unique_append: { urm_web_push_notification_token: ['abc'] } }, /push subscriptions/],
    [
      'a web token without keys',
      { urm_unique_append: { urm_web_push_notification_token: [JSON.stringify({ endpoint: 'https://push.example.com/x' })] } },
      /push subscriptions/,
    ],
    ['an iOS token', { urm_unique_append: { urm_ios_push_notification_token: ['apns-token'] } }, /emptied/],
    // A browser changes its own subscription only: never the other devices' tokens.
    ["the profile's tokens replaced at the top level", { urm_web_push_notification_token: [token] }, /emptied/],
    ["the profile's tokens replaced in urm_set", { urm_set: { urm_web_push_notification_token: [token] } }, /emptied/],
    [
      'a token removed that it does not present whole',
      { urm_remove: { urm_web_push_notification_token: ['https://push.example.com/send/abc'] } },
      /push subscriptions/,
    ],
    ['an iOS token removed', { urm_remove: { urm_ios_push_notification_token: ['apns-token'] } }, /emptied/],
    ['the tokens unset', { urm_unset: ['urm_web_push_notification_token'] }, /urm_receives_notifications/],
    ['the tokens deleted', { urm_delete: ['urm_android_push_notification_token'] }, /urm_receives_notifications/],
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

describe('identity proofs', () => {
  const secret = 'urm_identity_test-secret';
  const proof = profileIdProof(secret, 'player-42');

  test('a proof is the hex HMAC-SHA256 of the profile id with the secret, as the README computes it', () => {
    // echo -n player-42 | openssl dgst -sha256 -hmac urm_identity_test-secret
    expect(proof).toBe('db7a8104d82e9b2e9431caf829619b7ce2de598b60fa63d3ef967fd6faea634b');
  });

  test('a proof matches its profile id only, in either case of hex', () => {
    expect(proofMatches(secret, 'player-42', proof)).toBe(true);
    expect(proofMatches(secret, 'player-42', proof.toUpperCase())).toBe(true);
    expect(proofMatches(secret, 'player-43', proof)).toBe(false);
    expect(proofMatches('another secret', 'player-42', proof)).toBe(false);
    expect(proofMatches(secret, 'player-42', proof.slice(0, 63))).toBe(false);
    expect(proofMatches(secret, 'player-42', undefined)).toBe(false);
  });
});

describe('a browser key writes a known profile only with its proof', () => {
  const secret = 'urm_identity_test-secret';
  const keyring = (verification: IdentityVerification) => {
    const asked: string[] = [];
    const identity: IdentityKeyring = {
      forApp: async (appId) => {
        asked.push(appId);
        return verification;
      },
    };
    return { identity, asked };
  };
  const known = (profileId: string, fields: Record<string, unknown> = {}) => ({ ...base, profile_id: profileId, ...fields });
  const on = { required: true, secret } as const;

  test('records of anonymous visitors need no proof, and no secret is read for them', async () => {
    const { identity, asked } = keyring(on);

    await expect(assertBrowserProvesIdentity([base, known('urm-anon-2')], 'app_1', identity)).resolves.toBe(undefined);
    expect(asked).toEqual([]);
  });

  test('each known profile with the proof of exactly its id passes', async () => {
    const records = [
      known('player-1', { urm_profile_id_hash: profileIdProof(secret, 'player-1') }),
      known('player-2', { urm_profile_id_hash: profileIdProof(secret, 'player-2') }),
    ];

    await expect(assertBrowserProvesIdentity(records, 'app_1', keyring(on).identity)).resolves.toBe(undefined);
  });

  const refused: [string, { profile_id: string; [field: string]: unknown }[], IdentityVerification][] = [
    ['without a proof', [known('player-1')], on],
    ['with the proof of another profile', [known('player-1', { urm_profile_id_hash: profileIdProof(secret, 'player-2') })], on],
    ['with one record of the batch unproved', [known('player-1', { urm_profile_id_hash: profileIdProof(secret, 'player-1') }), known('player-2')], on],
    [
      'when the application has no secret yet',
      [known('player-1', { urm_profile_id_hash: profileIdProof(secret, 'player-1') })],
      { required: true, secret: undefined },
    ],
  ];
  for (const [name, records, verification] of refused) {
    test(`refused ${name}`, async () => {
      await expect(assertBrowserProvesIdentity(records, 'app_1', keyring(verification).identity)).rejects.toThrow(Forbidden);
    });
  }

  test('an application that turned verification off takes known profiles without a proof', async () => {
    await expect(assertBrowserProvesIdentity([known('player-1')], 'app_1', keyring({ required: false }).identity)).resolves.toBe(undefined);
  });
});
