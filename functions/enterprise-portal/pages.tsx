/**
 * The enterprise portal's pages: a refused sign-in link, and the short pages
 * of a redirect, in the design system's look (its portal stylesheet inlined,
 * allowed by hash). Links are relative, so the pages work under any base path
 * the portal origin maps to (`/redirect` → `console/`). No script.
 */
import { styleHash } from '../http/html';
import type { ComponentChildren } from 'preact';
import { render } from 'preact-render-to-string';
import type { TokenRefusal } from '../domain/one-time-tokens';
import { htmlSecurityHeaders } from '../http/html';
import { portalStylesheet } from '../ui/design/stylesheet';

/** The pages' headers: the stylesheet they inline is the only style they may have. */
export const enterprisePageHeaders = {
  'Content-Security-Policy': htmlSecurityHeaders['Content-Security-Policy'].replace("style-src 'unsafe-inline'", `style-src ${styleHash(portalStylesheet)}`),
};

function frame(title: string, body: ComponentChildren): string {
  return `<!doctype html>\n${render(
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${title} · urm`}</title>
        <style dangerouslySetInnerHTML={{ __html: portalStylesheet }} />
      </head>
      <body class="portal">
        <header class="bar">
          <div class="inner">
            <span class="brand">urm</span>
          </div>
        </header>
        <main id="content" class="page narrow">
          <div class="card access">{body}</div>
        </main>
      </body>
    </html>,
  )}\n`;
}

const refusals: Record<TokenRefusal, string> = {
  used: 'This sign-in link has already been used',
  expired: 'This sign-in link has expired',
  unknown: 'This sign-in link is not valid',
};

export function linkRefusedPage(reason: keyof typeof refusals): string {
  return frame(
    'Sign-in link refused',
    <>
      <h1>{refusals[reason]}</h1>
      <p>A sign-in link works once, within 5 minutes of being issued. Sign in again from your application to get a new link.</p>
    </>,
  );
}

/** Where /redirect sends a signed-in user: the back-office console, relative to the portal origin's root. */
export const CONSOLE_LANDING = 'console/';

const ToConsole = () => (
  <p>
    <a class="button primary" href={CONSOLE_LANDING}>
      Continue to the console
    </a>
  </p>
);

/** The body of the redirect into the console, for a client that does not follow it. */
export function signedInRedirectPage(): string {
  return frame(
    'Signed in',
    <>
      <h1>Signed in</h1>
      <ToConsole />
    </>,
  );
}

/** `/portal`, the landing page before the console: old links and bookmarks are sent on to the console. */
export function portalMovedPage(): string {
  return frame(
    'The portal is the console',
    <>
      <h1>The portal is now the console</h1>
      <ToConsole />
    </>,
  );
}

export function errorPage(): string {
  return frame(
    'Something went wrong',
    <>
      <h1>Something went wrong</h1>
      <p>Please try again in a moment.</p>
    </>,
  );
}

/** An address no route of the enterprise portal declares. */
export function notFoundPage(): string {
  return frame(
    'Not found',
    <>
      <h1>There is no such page</h1>
      <p>Check the address, or start again from your application.</p>
    </>,
  );
}
