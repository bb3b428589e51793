/**
 * Browser-facing routes (the portal): HTML answers with the security headers
 * every page carries, user data escaped, and the one middleware stack these
 * routes share: logging context → error page → header normalising. No API
 * key: such a route authenticates with what it is given (a token, a cookie).
 */
import { createHash } from 'node:crypto';
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { parseCookie } from 'cookie';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logger } from '../runtime/logger';
import type { ApiEvent, ApiResult } from './types';

/** Pages load nothing, run no script and cannot be framed; only their own inline style and same-origin forms. */
export const htmlSecurityHeaders = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // Pages are reached with a token in the address: it must not travel on in a Referer.
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
} as const;

/** The CSP source that allows exactly `css` inlined in a <style> element. */
export const styleHash = (css: string) => `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`;

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside an element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => escapes[char]);
}

export function html(statusCode: number, body: string, headers: Record<string, string> = {}): ApiResult {
  return {
    statusCode,
    headers: { 'Content-Type': 'text/html; charset=utf-8', ...htmlSecurityHeaders, ...headers },
    body,
  };
}

/** Anything thrown becomes this page; what went wrong goes to the log only. */
export function htmlErrors(errorPage: () => string): middy.MiddlewareObj<ApiEvent, ApiResult> {
  return {
    onError: async (request) => {
      logger.error('Request failed', { error: request.error as Error });
      request.response = html(500, errorPage());
    },
  };
}

/** The stack of a browser-facing route; a handler adds only its work. */
export function htmlApi(options: { errorPage: () => string }) {
  return middy<ApiEvent, ApiResult>().use(injectLambdaContext(logger)).use(htmlErrors(options.errorPage)).use(httpHeaderNormalizer());
}

/** The named cookie of a request (headers normalised to lower case), if well under a sane size; of one sent twice, the first. */
export function cookieOf(event: Pick<ApiEvent, 'headers'>, name: string): string | undefined {
  const header = event.headers?.cookie;
  if (!header || header.length > 8192) return undefined;
  // Taken as sent, not percent-decoded: the service's cookie values (random ids) are never encoded.
  return parseCookie(header, { decode: (value) => value })[name];
}
