/**
 * A signed-in console user on the local stack, as a browser gets one: sign up
 * and sign in through the enterprise API, follow the one-time link to
 * /redirect, keep the session cookie.
 * The CSRF token is what `GET /console/api/session` answers, as the console reads it.
 */
import { randomUUID } from 'node:crypto';
import { request, type JsonResponse } from './http';

export interface ConsoleSession {
  userId: string;
  cookie: string;
  csrf: string;
}

/** A new user of the application, signed in; `role` as sign_up gives it (without one, the application's first user is its admin). */
export async function consoleSignIn(
  baseUrl: string,
  app: { appId: string; serverKey: string },
  role?: 'admin' | 'marketer' | 'viewer',
): Promise<ConsoleSession> {
  const signUp = await request(baseUrl, 'POST', '/enterprises/sign_up', {
    key: app.serverKey,
    body: { app_id: app.appId, users: [{ email: `console-${randomUUID()}@example.com`, first_name: 'Ada', last_name: 'Lovelace', ...(role ? { role } : {}) }] },
  });
  if (signUp.status !== 200) throw new Error(`sign_up answered ${signUp.status}`);
  const userId = signUp.body.users[0].user_id as string;
  const signIn = await request(baseUrl, 'POST', '/enterprises/sign_in', { key: app.serverKey, body: { app_id: app.appId, user_id: userId } });
  if (signIn.status !== 200) throw new Error(`sign_in answered ${signIn.status}`);
  const redirect = await fetch(signIn.body.redirect_url as string, { redirect: 'manual' });
  const cookie = (redirect.headers.get('set-cookie') ?? '').split(';')[0]!;
  const who = await request(baseUrl, 'GET', '/console/api/session', { headers: { Cookie: cookie } });
  if (who.status !== 200) throw new Error(`the session answered ${who.status}`);
  return { userId, cookie, csrf: who.body.csrf_token as string };
}

/** A console API call with the session's cookie, and its CSRF token on a state-changing one. */
export function consoleRequest(baseUrl: string, session: ConsoleSession | null, method: 'GET' | 'POST', path: string, body?: unknown): Promise<JsonResponse> {
  const headers: Record<string, string> = session ? { Cookie: session.cookie, ...(method === 'POST' ? { 'X-CSRF-Token': session.csrf } : {}) } : {};
  return request(baseUrl, method, path, { headers, ...(body === undefined ? {} : { body }) });
}
