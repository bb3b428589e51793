/** From a push message to a notification, and from a click to a window. */
import type { PushPayload } from '../shared/records';

const optionalText = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);

/** The payload send_push encrypted, or undefined for a message that is not one of ours. */
export function parsePayload(text: string | undefined): PushPayload | undefined {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(text ?? '') as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const { notification_id, profile_id, title } = value;
  if (typeof notification_id !== 'string' || typeof profile_id !== 'string' || typeof title !== 'string') return undefined;
  return {
    notification_id,
    profile_id,
    title,
    body: typeof value.body === 'string' ? value.body : '',
    url: optionalText(value.url),
    icon: optionalText(value.icon),
  };
}

/** The notification's options; its data is the payload, for the click and close that follow. */
export function notificationOptions(payload: PushPayload): NotificationOptions {
  return {
    body: payload.body,
    ...(payload.icon ? { icon: payload.icon } : {}),
    // The same notification delivered twice is shown once.
    tag: payload.notification_id,
    data: payload,
  };
}

/** Where a click leads: the notification's url, or the site's root. */
export function clickTarget(payload: PushPayload | undefined, scope: string): string {
  try {
    return new URL(payload?.url ?? '/', scope).href;
  } catch {
    return new URL('/', scope).href;
  }
}

/** The open window to focus for a click: one already at the target, or none (a new one is opened). */
export function windowFor<W extends { url: string }>(windows: readonly W[], target: string): W | undefined {
  return windows.find((client) => client.url === target);
}
