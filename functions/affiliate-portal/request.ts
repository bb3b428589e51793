/** What a portal route reads from its request: the application in the path, form fields, the client address. */
import { decodeUtf8 } from '../domain/text';
import type { ApiEvent } from '../http/types';
import { maxFormBytes } from './routes';

/** The shape of application ids (`app_` + hex); anything else is no portal. */
const APP_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function appIdOf(event: Pick<ApiEvent, 'pathParameters'>): string | undefined {
  const appId = event.pathParameters?.app_id;
  return appId && APP_ID.test(appId) ? appId : undefined;
}

/**
 * The fields of an `application/x-www-form-urlencoded` body (the first of a
 * repeated name); empty for any other body, one too large, or invalid UTF-8.
 */
export function formOf(event: Pick<ApiEvent, 'body' | 'isBase64Encoded' | 'headers'>): Record<string, string> {
  const type = event.headers?.['content-type'] ?? '';
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type) || !event.body) return {};
  const bytes = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
  if (bytes.length > maxFormBytes) return {};
  const text = decodeUtf8(bytes);
  if (text === undefined) return {};
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) if (!(name in fields)) fields[name] = value;
  return fields;
}

/** The address the request came from, as API Gateway saw it (never a header the client sets). */
export function clientIpOf(event: Pick<ApiEvent, 'requestContext'>): string {
  return event.requestContext?.identity?.sourceIp || 'unknown';
}
