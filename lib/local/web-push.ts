/**
 * Web push in the local stack: the SDK files at the addresses the CDN serves
 * them (`/js/urm-notification.js`, its versioned copy, `/urmSDKWorker.js`,
 * their maps), the demo page at `/`, and the demo application's VAPID keys.
 *
 * The demo page subscribes with the demo application's browser key, which is
 * public by design. Proving a profile id, sending a push and reading the
 * timeline need the identity secret and the comms and server keys, which
 * never reach the page: the page asks local-only endpoints
 * (`POST /demo/identity`, `POST /demo/send-push`, `GET /demo/profile`,
 * `GET /demo/timeline`) that play the integrator's server, for the demo
 * application only, and only for requests a browser says come from the page's
 * own origin (its Origin header, or, for a same-origin GET, which carries
 * none, `Sec-Fetch-Site: same-origin`) that also carry the page's token
 * (`X-Urm-Demo-Token`), new at each start and written only into the served
 * page. A request that says neither (curl), or forges the Origin without the
 * token, is refused; the custom header also makes any cross-origin call need
 * a preflight, which is never answered.
 */
import { localStackActor } from '../../functions/domain/audit';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { identitySecretName, profileIdProof } from '../../functions/domain/identity';
import { vapidPrivateKeySecret } from '../../functions/domain/push';
import type { SecretStore } from '../../functions/domain/secrets';
import { distDir, sdkFiles, sdkVersion, WORKER_SCRIPT } from '../../web-sdk/build';
import { requireApp } from '../../functions/back-office/apps';
import type { BackOffice } from '../../functions/back-office/ports';
import { hasIdentitySecret, rotateIdentitySecret } from '../../functions/back-office/identity';
import { generateVapidKeys } from '../../functions/back-office/web-push';
import { demoPage } from './web-push-demo-page';
import type { DevConfig } from './demo-app';
import type { StaticHandler } from './server';

/** The demo application's VAPID contact: push services never write to it locally. */
export const DEMO_VAPID_SUBJECT = 'mailto:push-demo@example.com';

/**
 * Readies the demo application for web push: its page may be opened as
 * http://127.0.0.1:PORT or http://localhost:PORT, and it gets VAPID keys once
 * (again, if its private key went missing), and an identity secret.
 */
export async function ensureDemoWebPush(office: BackOffice, appId: string, baseUrl: string): Promise<void> {
  const app = await requireApp(office, appId);
  const origins = localOrigins(baseUrl);
  if (JSON.stringify(app.site_origins ?? []) !== JSON.stringify(origins)) await office.apps.update(appId, { site_origins: origins });
  const complete = app.vapid_public_key !== undefined && (await office.secrets.get(vapidPrivateKeySecret(appId))) !== undefined;
  if (!complete) await generateVapidKeys(office, appId, localStackActor, { subject: DEMO_VAPID_SUBJECT, rotate: true });
  // A demo application made before identity verification gets its secret; whether verification is on stays the developer's choice.
  if (!(await hasIdentitySecret(office, appId))) await rotateIdentitySecret(office, appId, localStackActor);
}

/** URL path → file of web-sdk/dist, exactly the files a build writes. */
export function sdkRoutes(version = sdkVersion()): Map<string, string> {
  const routes = new Map<string, string>();
  for (const file of sdkFiles(version)) {
    routes.set(file.startsWith(WORKER_SCRIPT) ? `/${file}` : `/js/${file}`, file);
  }
  return routes;
}

const MAX_DEMO_BODY = 16 * 1024;

function send(response: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string>): void {
  response.writeHead(status, { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...headers });
  response.end(body);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  send(response, status, JSON.stringify(body), { 'Content-Type': 'application/json; charset=utf-8' });
}

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_DEMO_BODY) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > MAX_DEMO_BODY ? undefined : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** The demo page's own origins: the stack's, and the same port on the other loopback name. */
export function localOrigins(baseUrl: string): string[] {
  const url = new URL(baseUrl);
  const other = url.hostname === '127.0.0.1' ? 'localhost' : url.hostname === 'localhost' ? '127.0.0.1' : undefined;
  return other ? [url.origin, `${url.protocol}//${other}:${url.port}`] : [url.origin];
}

export interface WebPushStaticsOptions {
  dev: DevConfig;
  baseUrl: string;
  log: (line: string) => void;
  /** Where the demo application's identity secret is, read at each proof (a rotation applies at once). */
  secrets: Pick<SecretStore, 'get'>;
}

/** Whether a browser says the request comes from one of `origins`; a request that says nothing does not. */
export function fromOwnPage(headers: IncomingMessage['headers'], origins: ReadonlySet<string>): boolean {
  const origin = headers.origin;
  if (origin !== undefined) return origins.has(origin);
  return headers['sec-fetch-site'] === 'same-origin';
}

/** The header the demo page sends its token in. */
export const DEMO_TOKEN_HEADER = 'x-urm-demo-token';

/** Whether the request carries the page's token (compared in constant time). */
export function carriesDemoToken(headers: IncomingMessage['headers'], token: string): boolean {
  const given = Buffer.from(String(headers[DEMO_TOKEN_HEADER] ?? ''));
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function webPushStatics(options: WebPushStaticsOptions): StaticHandler {
  const routes = sdkRoutes();
  const origins = new Set(localOrigins(options.baseUrl));
  // One per start: only the page served by this process carries it.
  const demoToken = randomBytes(32).toString('base64url');
  const api = (path: string, key: string, init: RequestInit = {}) =>
    fetch(`${options.baseUrl}${path}`, {
      ...init,
      headers: { Accept: 'application/json', 'x-api-key': key, ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
    });
  const relay = async (response: ServerResponse, answer: Response) => {
    send(response, answer.status, await answer.text(), { 'Content-Type': answer.headers.get('content-type') ?? 'application/json' });
  };
  const profileId = (url: URL) => {
    const id = url.searchParams.get('profile_id') ?? '';
    return id.length > 0 && id.length <= 128 ? id : undefined;
  };

  async function serve(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const method = request.method ?? 'GET';
    const file = routes.get(url.pathname);
    if (file && (method === 'GET' || method === 'HEAD')) {
      const contents = await readFile(join(distDir, file));
      const type = file.endsWith('.map') ? 'application/json; charset=utf-8' : 'application/javascript; charset=utf-8';
      return send(response, 200, method === 'HEAD' ? '' : contents, { 'Content-Type': type });
    }
    if (url.pathname === '/' && (method === 'GET' || method === 'HEAD')) {
      const page = demoPage({ appId: options.dev.app_id, browserKey: options.dev.browser_key, version: sdkVersion(), demoToken });
      return send(response, 200, method === 'HEAD' ? '' : page, { 'Content-Type': 'text/html; charset=utf-8' });
    }

    // The demo endpoints: the page's own origin, with the page's token, always (a cross-origin page cannot read their answers, nor send the header without a preflight they never answer).
    if (!fromOwnPage(request.headers, origins) || !carriesDemoToken(request.headers, demoToken)) return sendJson(response, 403, { message: 'Forbidden' });
    const appId = encodeURIComponent(options.dev.app_id);
    const jsonInput = async (): Promise<Record<string, unknown> | number> => {
      if (!request.headers['content-type']?.startsWith('application/json')) return 415;
      try {
        const input = JSON.parse((await readBody(request)) ?? '') as unknown;
        return input !== null && typeof input === 'object' ? (input as Record<string, unknown>) : 400;
      } catch {
        return 400;
      }
    };
    const refusal = (status: number) =>
      sendJson(response, status, { message: status === 415 ? 'Content-Type must be application/json' : 'request body is invalid' });
    if (url.pathname === '/demo/identity' && method === 'POST') {
      // What an integrator's server does for the player it signed in; here, the demo's "sign in" is typing an id.
      const input = await jsonInput();
      if (typeof input === 'number') return refusal(input);
      const id = input.profile_id;
      if (typeof id !== 'string' || id.length === 0 || id.length > 128) return sendJson(response, 400, { message: 'profile_id must be 1 to 128 characters' });
      const secret = await options.secrets.get(identitySecretName(options.dev.app_id));
      if (!secret) return sendJson(response, 500, { message: 'the demo application has no identity secret: restart npm start' });
      return sendJson(response, 200, { profile_id: id, profile_id_hash: profileIdProof(secret, id) });
    }
    if (url.pathname === '/demo/send-push' && method === 'POST') {
      const input = await jsonInput();
      if (typeof input === 'number') return refusal(input);
      const push = {
        app_id: options.dev.app_id,
        profile_id: input.profile_id,
        title: input.title,
        body: input.body ?? '',
        ...(input.url ? { url: input.url } : {}),
      };
      return relay(response, await api('/api/send_push', options.dev.comms_key, { method: 'POST', body: JSON.stringify(push) }));
    }
    if ((url.pathname === '/demo/profile' || url.pathname === '/demo/timeline') && method === 'GET') {
      const id = profileId(url);
      if (!id) return sendJson(response, 400, { message: 'profile_id must be 1 to 128 characters' });
      const path = `/profiles/${encodeURIComponent(id)}${url.pathname === '/demo/timeline' ? '/events' : ''}?app_id=${appId}`;
      return relay(response, await api(`${path}${url.pathname === '/demo/timeline' ? '&limit=20' : ''}`, options.dev.server_key));
    }
    return sendJson(response, 404, { message: 'Not Found' });
  }

  return (request, response, url) => {
    const handled = routes.has(url.pathname) || url.pathname === '/' || url.pathname.startsWith('/demo/');
    if (!handled) return false;
    serve(request, response, url).catch((error: unknown) => {
      options.log(`web push statics: ${request.method} ${url.pathname}: ${(error as Error).stack ?? error}`);
      if (!response.headersSent) sendJson(response, 500, { message: 'internal server error' });
      else response.end();
    });
    return true;
  };
}
