import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bridgeChat } from '../../../web-sdk/src/page/chat-bridge';
import { Identity } from '../../../web-sdk/src/page/identity';
import { readSettings } from '../../../web-sdk/src/page/settings';
import { base64UrlToBytes, sameKey, tokenOf } from '../../../web-sdk/src/shared/subscription';

describe('settings', () => {
  test('default apiUrl to the origin the script came from', () => {
    assert.equal(readSettings({ appId: 'a', apiKey: 'k' }, 'https://cdn.example.com').apiUrl, 'https://cdn.example.com');
    assert.equal(readSettings({ appId: 'a', apiKey: 'k', apiUrl: 'https://api.example.com/v1' }, 'https://cdn.example.com').apiUrl, 'https://api.example.com/v1');
  });

  test('need an apiUrl when the script address is unknown', () => {
    assert.throws(() => readSettings({ appId: 'a', apiKey: 'k' }, undefined), /apiUrl is required/);
  });

  test('bound the profile id', () => {
    assert.throws(() => readSettings({ appId: 'a', apiKey: 'k', profileId: 'x'.repeat(129) }, 'https://x.example'), /profileId must be a string of 1 to 128/);
  });
});

describe('the identity of a browser', () => {
  const store = () => {
    const items = new Map<string, string>();
    return { items, getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), removeItem: (k: string) => void items.delete(k) };
  };

  test('is one anonymous id per application until a profile id is set', () => {
    const storage = store();
    let n = 0;
    const identity = new Identity(storage, 'app_1', () => `u${++n}`);

    assert.equal(identity.profileId(), 'urm-anon-u1');
    assert.equal(identity.profileId(), 'urm-anon-u1');
    assert.equal(new Identity(storage, 'app_2', () => 'other').profileId(), 'urm-anon-other');
  });

  test('adopting a known id reports the anonymous profile to merge, once', () => {
    const identity = new Identity(store(), 'app_1', () => 'u1');
    identity.profileId();

    assert.deepEqual(identity.adopt('player-42'), { mergeFrom: 'urm-anon-u1' });
    assert.deepEqual(identity.adopt('player-42'), {});
    assert.deepEqual(identity.adopt('player-43'), { left: 'player-42' });
    assert.equal(identity.profileId(), 'player-43');
  });
});

describe('tokens', () => {
  test('are the subscription as canonical JSON: endpoint and keys, nothing else', () => {
    const token = tokenOf({ keys: { auth: 'a', p256dh: 'p' }, endpoint: 'https://push.example.com/x', expirationTime: null } as never);

    assert.equal(token, '{"endpoint":"https://push.example.com/x","keys":{"p256dh":"p","auth":"a"}}');
    assert.throws(() => tokenOf({ endpoint: 'https://push.example.com/x' }), /no endpoint or keys/);
  });

  test('compare application server keys byte by byte', () => {
    const key = base64UrlToBytes('BAEC_-8');

    assert.deepEqual([...key], [4, 1, 2, 255, 239]);
    assert.equal(sameKey(new Uint8Array([4, 1, 2, 255, 239]).buffer, key), true);
    assert.equal(sameKey(new Uint8Array([4, 1, 2, 255, 0]).buffer, key), false);
    assert.equal(sameKey(null, key), false);
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

    assert.deepEqual(seen, ['a', 'b']);
    assert.deepEqual(chatSeen, ['a', 'b']);
  });

  test('still reaches both when the chat script replaces only the method', () => {
    const seen: string[] = [];
    const chatSeen: string[] = [];
    const win: { urmChat?: { setProfileId?: (id: string) => unknown } } = {};
    bridgeChat(win, (id) => seen.push(id));

    win.urmChat!.setProfileId = (id: string) => chatSeen.push(id);
    win.urmChat!.setProfileId!('c');

    assert.deepEqual([seen, chatSeen], [['c'], ['c']]);
  });
});

test('the SDK and the service agree on the names they share', async () => {
  const sdk = await import('../../../web-sdk/src/shared/records');
  const service = await import('../../../functions/shared/domain/push');
  const attributes = await import('../../../functions/shared/domain/attributes');

  assert.deepEqual(sdk.lifecycleEvents, service.lifecycleEvents);
  assert.equal(sdk.ANONYMOUS_PREFIX, service.ANONYMOUS_PROFILE_PREFIX);
  assert.deepEqual([sdk.TOKENS, sdk.IOS_TOKENS, sdk.ANDROID_TOKENS].sort(), [...attributes.pushTokenAttributes].sort());
  assert.ok((attributes.writableSystemAttributes as readonly string[]).includes(sdk.RECEIVES));
});
