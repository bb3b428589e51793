/**
 * The origin a request was sent to (`https://abc.execute-api…amazonaws.com`,
 * `http://127.0.0.1:3000`): API Gateway's domain name, else the Host header,
 * with the scheme API Gateway reports. Expects lower-cased headers.
 *
 * The sender chooses `Host` and `X-Forwarded-Proto`, so this must not be the base
 * of a link that is mailed or answered to anyone (docs/api.md, "Security"):
 * those come from the application's portal origin. It only decides things
 * about the sender's own answer, such as whether a cookie is Secure.
 */
import type { ApiEvent } from './types';

const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export function requestOrigin(event: Pick<ApiEvent, 'headers' | 'requestContext'>): string {
  const domainName = event.requestContext?.domainName;
  const host = [domainName, event.headers?.host].find((candidate) => candidate !== undefined && HOST.test(candidate)) ?? 'localhost';
  const forwarded = event.headers?.['x-forwarded-proto']?.toLowerCase();
  const scheme = forwarded === 'http' || forwarded === 'https' ? forwarded : domainName ? 'https' : 'http';
  return `${scheme}://${host}`;
}
