import { createHmac } from 'node:crypto';
import { describe, expect, test } from '@jest/globals';
import {
  claimedApp,
  maxUnsubscribeTokenLength,
  newUnsubscribeKey,
  preferencesFormToken,
  preferencesFormTokenMatches,
  signUnsubscribeToken,
  verifyUnsubscribeToken,
} from '../../../functions/domain/unsubscribe-token';

const key = newUnsubscribeKey();
const otherKey = newUnsubscribeKey();
const claims = { appId: 'app_1', profileId: 'player-42', topic: 'sports' };

function withPayload(token: string, body: unknown): string {
  return `${Buffer.from(JSON.stringify(body), 'utf8').toString('base64url')}.${token.split('.')[1]}`;
}

describe('an unsubscribe token', () => {
  test('signed with the application key gives back the application, the player and the topic', () => {
    const token = signUnsubscribeToken(key, claims);

    expect(verifyUnsubscribeToken(key, token)).toEqual(claims);
    expect(claimedApp(token)).toBe('app_1');
  });

  test("carries the campaign whose mail it was in, so the campaign's results count the unsubscribe", () => {
    const campaign = { campaign: 'journey:welcome', step: 'welcome-mail', version: '3' };

    const token = signUnsubscribeToken(key, { ...claims, campaign });

    expect(verifyUnsubscribeToken(key, token)).toEqual({ ...claims, campaign });
  });

  test('naming a campaign of another shape is refused, even signed', () => {
    const signed = (c: unknown) => {
      const payload = Buffer.from(JSON.stringify({ v: 1, a: 'app_1', p: 'p1', c }), 'utf8').toString('base64url');
      return `${payload}.${createHmac('sha256', key).update(payload, 'utf8').digest('base64url')}`;
    };

    expect(verifyUnsubscribeToken(key, signed({ campaign: 'journey:welcome' }))).toMatchObject({ campaign: { campaign: 'journey:welcome' } });
    for (const shape of ['journey:welcome', { campaign: '' }, { campaign: 'x'.repeat(141) }, { campaign: 'j:x', extra: 1 }, { campaign: 'j:x', step: 7 }]) {
      expect(verifyUnsubscribeToken(key, signed(shape))).toBeUndefined();
    }
  });

  test('without a topic means all marketing email', () => {
    const token = signUnsubscribeToken(key, { appId: 'app_1', profileId: 'p1' });

    expect(verifyUnsubscribeToken(key, token)).toEqual({ appId: 'app_1', profileId: 'p1' });
  });

  test('is the same string every time, so an old link keeps working after the next mail', () => {
    expect(signUnsubscribeToken(key, claims)).toBe(signUnsubscribeToken(key, claims));
  });

  test('signed with another key (forged, or another application) is refused', () => {
    expect(verifyUnsubscribeToken(key, signUnsubscribeToken(otherKey, claims))).toBeUndefined();
  });

  test('with its payload altered (another player, another application, no topic) is refused', () => {
    const token = signUnsubscribeToken(key, claims);

    for (const body of [
      { v: 1, a: 'app_1', p: 'player-43', t: 'sports' },
      { v: 1, a: 'app_2', p: 'player-42', t: 'sports' },
      { v: 1, a: 'app_1', p: 'player-42' },
    ]) {
      expect(verifyUnsubscribeToken(key, withPayload(token, body))).toBeUndefined();
    }
  });

  test("a MAC spelt another way that decodes to the same bytes is refused: the last character's unused bits are not slack", () => {
    const token = signUnsubscribeToken(key, claims);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(token.slice(-1));
    // The four characters that share the last one's four significant bits.
    const sameBytes = [0, 1, 2, 3].map((low) => alphabet[(last & ~3) | low]).filter((c) => c !== token.slice(-1));

    expect(verifyUnsubscribeToken(key, token)).toEqual(claims);
    for (const other of sameBytes) {
      const respelt = `${token.slice(0, -1)}${other}`;
      expect(Buffer.from(respelt.split('.')[1], 'base64url')).toEqual(Buffer.from(token.split('.')[1], 'base64url'));
      expect(verifyUnsubscribeToken(key, respelt)).toBeUndefined();
    }
  });

  test('cut short, emptied, or with its MAC changed by one character is refused', () => {
    const token = signUnsubscribeToken(key, claims);
    const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;

    for (const bad of [token.slice(0, -1), token.slice(0, token.indexOf('.')), token.slice(token.indexOf('.')), '', '.', flipped, `${token}.x`]) {
      expect(verifyUnsubscribeToken(key, bad)).toBeUndefined();
    }
  });

  test('longer than the bound is refused before any MAC is computed, and claims no application', () => {
    const long = signUnsubscribeToken(key, { appId: 'app_1', profileId: 'p'.repeat(maxUnsubscribeTokenLength) });

    expect(long.length).toBeGreaterThan(maxUnsubscribeTokenLength);
    expect(verifyUnsubscribeToken(key, long)).toBeUndefined();
    expect(claimedApp(long)).toBeUndefined();
  });

  test('with a valid MAC over a payload of another shape (version, types, lengths, not JSON) is refused', () => {
    const sign = (text: string) => {
      const payload = Buffer.from(text, 'utf8').toString('base64url');
      return `${payload}.${createHmac('sha256', key).update(payload, 'utf8').digest('base64url')}`;
    };

    expect(verifyUnsubscribeToken(key, sign(JSON.stringify({ v: 1, a: 'app_1', p: 'x' })))).toEqual({ appId: 'app_1', profileId: 'x' });
    for (const text of [
      JSON.stringify({ v: 2, a: 'app_1', p: 'x' }),
      JSON.stringify({ v: 1, a: 'app_1', p: 7 }),
      JSON.stringify({ v: 1, a: 'app_1', p: '' }),
      JSON.stringify({ v: 1, a: 'app_1', p: 'x', t: 'y'.repeat(65) }),
      JSON.stringify([1, 'app_1', 'x']),
      'not json',
    ]) {
      expect(verifyUnsubscribeToken(key, sign(text))).toBeUndefined();
    }
  });

  test('the longest ids of the spec fit within the bound', () => {
    const token = signUnsubscribeToken(key, { appId: 'a'.repeat(64), profileId: 'ü'.repeat(128), topic: 't'.repeat(64) });

    expect(token.length).toBeLessThanOrEqual(maxUnsubscribeTokenLength);
    expect(verifyUnsubscribeToken(key, token)?.profileId).toBe('ü'.repeat(128));
  });
});

describe("the preference page's form token", () => {
  test('is bound to the link and the key', () => {
    const token = signUnsubscribeToken(key, claims);
    const other = signUnsubscribeToken(key, { ...claims, profileId: 'someone-else' });
    const form = preferencesFormToken(key, token);

    expect(preferencesFormTokenMatches(key, token, form)).toBe(true);
    expect(preferencesFormTokenMatches(key, other, form)).toBe(false);
    expect(preferencesFormTokenMatches(otherKey, token, form)).toBe(false);
    expect(preferencesFormTokenMatches(key, token, undefined)).toBe(false);
    expect(preferencesFormTokenMatches(key, token, `${form}x`)).toBe(false);
  });
});
