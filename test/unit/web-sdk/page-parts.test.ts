import { describe, expect, test } from '@jest/globals';
import { bridgeChat } from '../../../web-sdk/src/page/chat-bridge';
import { Identity } from '../../../web-sdk/src/page/identity';
import { readSettings } from '../../../web-sdk/src/page/settings';
import { base64UrlToBytes, sameKey, tokenOf } from '../../../web-sdk/src/shared/subscription';

describe('settings', () => {
  test('default apiUrl to the origin the script came from', () => {
    expect(readSettings({ appId: 'a', apiKey: 'k' }, 'https://cdn.example.com').apiUrl).toBe('https://cdn.example.com');
    expect(readSettings({ appId: 'a', apiKey: 'k', apiUrl: 'https://api.example.com/v1' }, 'https://cdn.example.com').apiUrl).toBe(
      'https://api.example.com/v1',
    );
  });

  test('need an apiUrl when the script address is unknown', () => {
    expect(() => readSettings({ appId: 'a', apiKey: 'k' }, undefined)).toThrow(/apiUrl is required/);
  });

  test('bound the profile id', () => {
    expect(() => readSettings({ appId: 'a', apiKey: 'k', profileId: 'x'.repeat(129) }, 'https://x.example')).toThrow(/profileId must be a string of 1 to 128/);
  });
});

describe('the identity of a browser', () => {
  const store = () => {
    const items = new Map<string, string>();
    return {
      items,
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      removeItem: (k: string) => void items.delete(k),
    };
  };

  test('is one anonymous id per application until a profile id is set', () => {
    const storage = store();
    let n = 0;
    const identity = new Identity(storage, 'app_1', () => `u${++n}`);

    expect(identity.profileId()).toBe('urm-anon-u1');
    expect(identity.profileId()).toBe('urm-anon-u1');
    expect(new Identity(storage, 'app_2', () => 'other').profileId()).toBe('urm-anon-other');
  });

  test('adopting a known id reports the anonymous profile to merge, once', () => {
    const identity = new Identity(store(), 'app_1', () => 'u1');
    identity.profileId();

    expect(identity.adopt('player-42')).toEqual({ mergeFrom: 'urm-anon-u1' });
    expect(identity.adopt('player-42')).toEqual({});
    expect(identity.adopt('player-43')).toEqual({ left: 'player-42' });
    expect(identity.profileId()).toBe('player-43');
  });
});

describe('tokens', () => {
  test('are the subscription as canonical JSON: endpoint and keys, nothing else', () => {
    const token = tokenOf({ keys: { auth: 'a', p256dh: 'p' }, endpoint: 'https://push.example.com/x', expirationTime: null } as never);

    expect(token).toBe('{"endpoint":"https://push.example.com/x","keys":{"p256dh":"p","auth":"a"}}');
    expect(() => tokenOf({ endpoint: 'https://push.example.com/x' })).toThrow(/no endpoint or keys/);
  });

  test('compare application server keys byte by byte', () => {
    const key = base64UrlToBytes('BAEC_-8');

    expect([...key]).toEqual([4, 1, 2, 255, 239]);
    expect(sameKey(new Uint8Array([4, 1, 2, 255, 239]).buffer, key)).toBe(true);
    expect(sameKey(new Uint8Array([4, 1, 2, 255, 0]).buffer, key)).toBe(false);
    expect(sameKey(null, key)).toBe(false);
  });
});

describe('window.urmChat.setProfileId', () => {
  test('reaches the push SDK and the chat script, whichever loads first', () => {
    const seen: string[] = [];
    const chatSeen: string[] = [];
    const before = { urmChat: { setProfileId: (id: string) => chatSeen.push(id) } };
    bridgeChat(before, (id) => seen.push(id));
    (before.urmChat as { setProfileId(id: string): void }).setProfileId('a');

    const after: { urmChat?: unknown } = {};
    bridgeChat(after, (id) => seen.push(id));
    after.urmChat = { setProfileId: (id: string) => chatSeen.push(id) };
    (after.urmChat as { setProfileId(id: string): void }).setProfileId('b');

    expect(seen).toEqual(['a', 'b']);
    expect(chatSeen).toEqual(['a', 'b']);
  });

  test('still reaches both when the chat script replaces only the method', () => {
    const seen: string[] = [];
    const chatSeen: string[] = [];
    const win: { urmChat?: { setProfileId?: (id: string) => unknown } } = {};
    bridgeChat(win, (id) => seen.push(id));

    win.urmChat!.setProfileId = (id: string) => chatSeen.push(id);
    win.urmChat!.setProfileId!('c');

    expect([seen, chatSeen]).toEqual([['c'], ['c']]);
  });

  test("passes the site's proof of the id along to both", () => {
    const seen: unknown[][] = [];
    const chatSeen: unknown[][] = [];
    const win = { urmChat: { setProfileId: (...args: unknown[]) => chatSeen.push(args) } };
    bridgeChat(win, (...args) => seen.push(args));

    (win.urmChat as { setProfileId(id: string, hash: string): void }).setProfileId('d', 'ab'.repeat(32));

    expect([seen, chatSeen]).toEqual([[['d', 'ab'.repeat(32)]], [['d', 'ab'.repeat(32)]]]);
  });
});

test('the SDK and the service agree on the names they share', async () => {
  const sdk = await import('../../../web-sdk/src/shared/records');
  const service = await import('../../../functions/domain/push');
  const attributes = await import('../../../functions/domain/attributes');

  expect(sdk.lifecycleEvents).toEqual(service.lifecycleEvents);
  expect(sdk.ANONYMOUS_PREFIX).toBe(service.ANONYMOUS_PROFILE_PREFIX);
  expect(sdk.PROOF).toBe((await import('../../../functions/domain/identity')).PROOF_FIELD);
  expect([sdk.TOKENS, sdk.IOS_TOKENS, sdk.ANDROID_TOKENS].sort()).toEqual([...attributes.pushTokenAttributes].sort());
  expect((attributes.writableSystemAttributes as readonly string[]).includes(sdk.RECEIVES)).toBeTruthy();
});
