/**
 * The enterprise portal's router over its routes (routes.ts), made from its
 * ports. HTML answers with the security headers every page carries; anything
 * thrown becomes the error page, and an address no route declares the
 * not-found page.
 */
import { newSecret } from '../domain/secrets-random';
import { html, htmlApi } from '../http/html';
import { routeRequests, type RouteHandler } from '../http/router';
import { sessionCookie } from '../http/session-cookie';
import { logger } from '../runtime/logger';
import { CONSOLE_LANDING, enterprisePageHeaders, errorPage, linkRefusedPage, notFoundPage, portalMovedPage, signedInRedirectPage } from './pages';
import { redirectIntoPortal, type RedirectPorts } from './redirect';
import { routes } from './routes';

export type EnterprisePortalPorts = Omit<RedirectPorts, 'newSessionId' | 'now'> & Partial<Pick<RedirectPorts, 'newSessionId' | 'now'>>;

type RouteId = (typeof routes)[number]['id'];

export function makeEnterprisePortalHandler(ports: EnterprisePortalPorts) {
  const redirect = redirectIntoPortal({ newSessionId: newSecret, now: () => new Date(), ...ports });
  const handlers: Record<RouteId, RouteHandler> = {
    EnterpriseRedirect: async (event) => {
      const result = await redirect(event.queryStringParameters?.token);
      if (result.outcome !== 'signed-in') {
        logger.info('Sign-in link refused', { outcome: result.outcome });
        return html(401, linkRefusedPage(result.outcome), enterprisePageHeaders);
      }
      logger.info('Portal session started', { app_id: result.session.app_id, user_id: result.session.user_id });
      // Relative: /redirect is served at the root of the portal origin (the CDN in AWS, the local server), and the
      // console beside it at /console/ (docs/architecture.md, "The back-office console").
      return html(303, signedInRedirectPage(), {
        ...enterprisePageHeaders,
        Location: CONSOLE_LANDING,
        'Set-Cookie': sessionCookie(result.sessionId, result.session.cookie_secure),
      });
    },
    PortalHome: async () => html(303, portalMovedPage(), { ...enterprisePageHeaders, Location: CONSOLE_LANDING }),
  };
  return htmlApi({ errorPage }).handler(
    routeRequests(
      routes,
      (route) => handlers[route.id],
      () => html(404, notFoundPage(), enterprisePageHeaders),
    ),
  );
}
