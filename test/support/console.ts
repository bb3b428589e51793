/**
 * A signed-in console user on the local stack, as a browser gets one: sign up
 * and sign in through the enterprise API, follow the one-time link to
 * /redirect, keep the session cookie.
 *
 * The CSRF token comes from the stand-in console auth
 * (functions/shared/http/console-auth.ts); with lane S's real one, read it
 * from `GET /console/api/session` instead.
 */
import { randomUUID } from 'node:crypto';
import { consoleCsrfToken } from '../../functions/shared/http/console-auth';
import { SESSION_COOKIE } from '../../functions/shared/portal/session-cookie';
import { request, type JsonResponse } from './http';

export interface ConsoleSession {
  userId: string;
  cookie: string;
  csrf: string;
}

export async function consoleSignIn(baseUrl: string, app: { appId: string; serverKey: string }): Promise<ConsoleSession> {
  const signUp = await request(baseUrl, 'POST', '/enterprises/sign_up', {
    key: app.serverKey,
    body: { app_id: app.appId, users: [{ email: `console-${randomUUID()}@example.com`, first_name: 'Ada', last_name: 'Lovelace' }] },
  });
  if (signUp.status !== 200) throw new Error(`sign_up answered ${signUp.status}`);
  const userId = signUp.body.users[0].user_id as string;
  const signIn = await request(baseUrl, 'POST', '/enterprises/sign_in', { key: app.serverKey, body: { app_id: app.appId, user_id: userId } });
  if (signIn.status !== 200) throw new Error(`sign_in answered ${signIn.status}`);
  const redirect = await fetch(signIn.body.redirect_url as string, { redirect: 'manual' });
  const cookie = (redirect.headers.get('set-cookie') ?? '').split(';')[0]!;
  const sessionId = cookie.slice(`${SESSION_COOKIE}=`.length);
  return { userId, cookie, csrf: consoleCsrfToken(sessionId) };
}

/** A console API call with the session's cookie, and its CSRF token on a state-changing one. */
export function consoleRequest(baseUrl: string, session: ConsoleSession | null, method: 'GET' | 'POST', path: string, body?: unknown): Promise<JsonResponse> {
  const headers: Record<string, string> = session ? { Cookie: session.cookie, ...(method === 'POST' ? { 'X-CSRF-Token': session.csrf } : {}) } : {};
  return request(baseUrl, method, path, { headers, ...(body === undefined ? {} : { body }) });
}
