/** GET /t/{link_id}, made from its ports: handler.ts passes the container's, a test its fakes. */
import { cookieSecureFor } from '../../domain/sessions';
import { VISITOR_COOKIE, VISITOR_COOKIE_MAX_AGE_SECONDS } from '../../domain/tracking-links';
import { cookieOf, html, htmlApi } from '../../http/html';
import { errorPage } from '../../http/pages';
import { requestOrigin } from '../../http/request-origin';
import type { ApiEvent } from '../../http/types';
import { logger } from '../../runtime/logger';
import { trackClick, type TrackClickPorts } from './core';
import { unknownLinkPage } from './pages';

/**
 * The cookie is sent back only to click addresses: the path up to `/t/` as the
 * request reached the API (with the stage, `/v1/t/`, in AWS).
 */
function cookiePath(event: ApiEvent): string {
  const path = event.requestContext?.path ?? event.path ?? '';
  const at = path.lastIndexOf('/t/');
  const prefix = at >= 0 ? path.slice(0, at + 3) : '/t/';
  return /^[A-Za-z0-9/._-]{3,200}$/.test(prefix) ? prefix : '/t/';
}

function visitorCookie(event: ApiEvent, value: string): string {
  const secure = cookieSecureFor(requestOrigin(event));
  return `${VISITOR_COOKIE}=${value}; Path=${cookiePath(event)}; Max-Age=${VISITOR_COOKIE_MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** `writer` is the visitor's wait: give it a short retry policy. */
export function makeTrackClickHandler(ports: TrackClickPorts) {
  const click = trackClick(ports);
  return htmlApi({ errorPage }).handler(async (event) => {
    const result = await click({
      linkId: event.pathParameters?.link_id,
      subIds:
        event.multiValueQueryStringParameters?.urm_aff ??
        (event.queryStringParameters?.urm_aff === undefined ? undefined : [event.queryStringParameters.urm_aff]),
      visitorCookie: cookieOf(event, VISITOR_COOKIE),
      sourceIp: event.requestContext?.identity?.sourceIp ?? '',
      userAgent: event.headers?.['user-agent'] ?? '',
    });
    if (result.outcome === 'unknown-link') return html(404, unknownLinkPage());
    // Ids and the outcome only: never the visitor's address, agent or cookie.
    if (result.failure) logger.error('Click not counted', { ...result.link, step: result.failure.step, error: result.failure.error });
    else logger.debug('Click', { ...result.link, count: result.count });
    return html(302, '', {
      Location: result.location,
      ...(result.visitorCookie ? { 'Set-Cookie': visitorCookie(event, result.visitorCookie) } : {}),
    });
  });
}
