/**
 * `window.urmChat.setProfileId(id, hash)` (docs/api.md, "The SDK"): the site's core/chat script
 * tells who the visitor is; the push SDK follows. Whether the chat script
 * loads before or after this one, and whether it replaces `window.urmChat` or
 * only its method, the call reaches both.
 */
type Chat = Record<string, unknown>;
const BRIDGED = '__urmNotificationBridge';

type OnProfileId = (id: string, hash?: string) => void;

function bridge(chat: Chat, onProfileId: OnProfileId): Chat {
  if (chat[BRIDGED]) return chat;
  let own = chat.setProfileId;
  const setProfileId = function (this: unknown, ...args: [string, string?]): unknown {
    const result = typeof own === 'function' ? own.apply(this, args) : undefined;
    onProfileId(...args);
    return result;
  };
  try {
    Object.defineProperty(chat, 'setProfileId', {
      configurable: true,
      enumerable: true,
      get: () => setProfileId,
      set: (value: unknown) => {
        own = value;
      },
    });
    Object.defineProperty(chat, BRIDGED, { value: true });
  } catch {
    // A frozen chat object cannot be bridged; urmNotification.setProfileId still works.
  }
  return chat;
}

export function bridgeChat(win: object, onProfileId: OnProfileId): void {
  const target = win as { urmChat?: unknown };
  const wrap = (value: unknown) => (value !== null && typeof value === 'object' ? bridge(value as Chat, onProfileId) : value);
  let chat = wrap(target.urmChat ?? {});
  Object.defineProperty(target, 'urmChat', {
    configurable: true,
    enumerable: true,
    get: () => chat,
    set: (value: unknown) => {
      chat = wrap(value);
    },
  });
}
