/**
 * The enterprise portal's pages: a refused sign-in link, and the short pages
 * of a redirect. Links are relative, so the pages work under any base path
 * the portal origin maps to (`/redirect` → `console/`).
 */
import type { TokenRefusal } from '../domain/one-time-tokens';
import { layout } from '../http/pages';

export { errorPage } from '../http/pages';

const refusals: Record<TokenRefusal, string> = {
  used: 'This sign-in link has already been used',
  expired: 'This sign-in link has expired',
  unknown: 'This sign-in link is not valid',
};

export function linkRefusedPage(reason: keyof typeof refusals): string {
  return layout(
    'Sign-in link refused',
    `<h1>${refusals[reason]}</h1>
<p>A sign-in link works once, within 5 minutes of being issued. Sign in again from your application to get a new link.</p>`,
  );
}

/** Where /redirect sends a signed-in user: the back-office console, relative to the portal origin's root. */
export const CONSOLE_LANDING = 'console/';

/** The body of the redirect into the console, for a client that does not follow it. */
export function signedInRedirectPage(): string {
  return layout('Signed in', `<h1>Signed in</h1>\n<p><a href="${CONSOLE_LANDING}">Continue to the console</a></p>`);
}

/** `/portal`, the landing page before the console: old links and bookmarks are sent on to the console. */
export function portalMovedPage(): string {
  return layout('The portal is the console', `<h1>The portal is now the console</h1>\n<p><a href="${CONSOLE_LANDING}">Continue to the console</a></p>`);
}
