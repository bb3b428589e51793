/**
 * The console's only way to the server: JSON over `fetch`, same origin, the
 * session cookie sent by the browser. Every POST carries the session's CSRF
 * token (GET /console/api/session) in `X-CSRF-Token`; the server checks it,
 * and the role, on every call (docs/api.md, "Back office API").
 */
import type { ConsoleAnswer } from '../answers';

export type Session = ConsoleAnswer<'ConsoleSession'>;

export const API_ROOT = '/console/api';

/** An answer other than 2xx: its status and the server's own message (and field errors, for a 400). */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly errors: string[] = [],
  ) {
    super(message);
  }
}

let csrfToken: string | undefined;
let onSignedOut: (() => void) | undefined;

/** Where a 401 from any call goes: the console shows "not signed in" instead of the page. */
export function whenSignedOut(listener: () => void): void {
  onSignedOut = listener;
}

type Query = Record<string, string | number | undefined>;

export function apiPath(path: string, query: Query = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return `${API_ROOT}${path}${text ? `?${text}` : ''}`;
}

async function call<T>(path: string, init: RequestInit): Promise<T> {
  const response = await fetch(path, { credentials: 'same-origin', ...init, headers: { Accept: 'application/json', ...init.headers } });
  const body = (await response.json().catch(() => ({}))) as { message?: string; errors?: string[] };
  if (response.ok) return body as T;
  if (response.status === 401) onSignedOut?.();
  throw new ApiError(response.status, body.message ?? response.statusText, Array.isArray(body.errors) ? body.errors : []);
}

export function getJson<T>(path: string, query?: Query): Promise<T> {
  return call<T>(apiPath(path, query), { method: 'GET' });
}

export function postJson<T>(path: string, body: unknown = {}): Promise<T> {
  return call<T>(apiPath(path), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(csrfToken ? { 'X-CSRF-Token': csrfToken } : {}) },
    body: JSON.stringify(body),
  });
}

/** Reads the session, keeping its CSRF token for the POSTs that follow. */
export async function loadSession(): Promise<Session> {
  const session = await getJson<Session>('/session');
  csrfToken = session.csrf_token;
  return session;
}

export async function signOut(): Promise<void> {
  await postJson('/sign_out');
  csrfToken = undefined;
}
