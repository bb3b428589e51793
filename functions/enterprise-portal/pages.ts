/**
 * The portal's pages. Every piece of user data goes through `escapeHtml`;
 * links and forms are relative, so the pages work under any base path the
 * portal origin maps to (`/redirect` → `portal` → `portal/sign_out`).
 */
import type { EnterpriseUser, TokenConsumption } from '../domain/enterprise';
import { escapeHtml } from '../http/html';
import { layout } from '../http/pages';

export { errorPage } from '../http/pages';

export function portalHomePage(view: { appName?: string; user: EnterpriseUser }): string {
  const fullName = `${view.user.first_name} ${view.user.last_name}`;
  const heading = view.appName ? `${view.appName} portal` : 'Portal';
  return layout(
    heading,
    `<h1>${escapeHtml(heading)}</h1>
<p id="signed-in-as">Signed in as <strong id="user-name">${escapeHtml(fullName)}</strong></p>
<p class="muted" id="user-email">${escapeHtml(view.user.email)}</p>
<p><a id="open-console" href="console/">Open the back-office console</a></p>
<form method="post" action="portal/sign_out">
<button type="submit">Sign out</button>
</form>`,
  );
}

export function notSignedInPage(): string {
  return layout(
    'Not signed in',
    `<h1>You are not signed in</h1>
<p>Your session has ended or was never started. Sign in again from your application to get a new link.</p>`,
  );
}

const refusals: Record<Exclude<TokenConsumption['outcome'], 'consumed'>, string> = {
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

/** The body of the redirect into the portal, for a client that does not follow it. */
/** Where /redirect sends a signed-in user: the back-office console, relative to the portal origin's root. */
export const CONSOLE_LANDING = 'console/';

export function signedInRedirectPage(): string {
  return layout('Signed in', `<h1>Signed in</h1>\n<p><a href="${CONSOLE_LANDING}">Continue to the console</a></p>`);
}

export function signedOutPage(): string {
  return layout('Signed out', `<h1>You have signed out</h1>\n<p>Sign in again from your application to come back.</p>`);
}
