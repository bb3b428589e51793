/**
 * A page answer: a Preact tree rendered to HTML (every string in it escaped
 * by the renderer: user data never becomes markup), behind headers that let
 * it load nothing, run no script but its own, be framed by no one and post only to its
 * own origin; its one stylesheet and its one script (the links page's Copy
 * buttons) are allowed by hash.
 */
import type { VNode } from 'preact';

// biome-ignore lint/suspicious/noExplicitAny: a page of any props; VNode's props are contravariant, so no narrower type takes them all.
type AnyNode = VNode<any>;
import { render } from 'preact-render-to-string';
import type { ApiResult } from '../http/types';
import { copyScriptHash } from './pages/copy-script';
import { portalCssHash } from './pages/style';

export const portalSecurityHeaders = {
  'Content-Security-Policy': `default-src 'none'; script-src ${copyScriptHash}; style-src ${portalCssHash}; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // The reset page carries its token in the address: it must not travel on in a Referer.
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
} as const;

export function renderPage(page: AnyNode): string {
  return `<!doctype html>\n${render(page)}\n`;
}

export interface PageOptions {
  headers?: Record<string, string>;
  cookies?: string[];
}

export function page(statusCode: number, tree: AnyNode, options: PageOptions = {}): ApiResult {
  return {
    statusCode,
    headers: { 'Content-Type': 'text/html; charset=utf-8', ...portalSecurityHeaders, ...options.headers },
    ...(options.cookies && options.cookies.length > 0 ? { multiValueHeaders: { 'Set-Cookie': options.cookies } } : {}),
    body: renderPage(tree),
  };
}

/** 303 See Other after a form post: the browser follows with a GET. */
export function seeOther(location: string, options: PageOptions = {}): ApiResult {
  return {
    statusCode: 303,
    headers: { Location: location, 'Content-Type': 'text/plain; charset=utf-8', ...portalSecurityHeaders, ...options.headers },
    ...(options.cookies && options.cookies.length > 0 ? { multiValueHeaders: { 'Set-Cookie': options.cookies } } : {}),
    body: 'See Other',
  };
}
