/**
 * Signing in to an application's portal with username or email and password,
 * and signing out. Attempts are counted per account (the login as typed) and
 * per client address, each before its password is checked, by a conditional
 * write that refuses once the window holds the limit: attempts sent at once
 * get no more checks than attempts sent one by one. Past the limit both are
 * refused until their window ends, even with the right password; a right
 * password checked alongside the attempts that filled the window is refused
 * too. The answer never says which of login or password was wrong; an unknown
 * login costs the same scrypt work as a known one.
 */
import { h } from 'preact';
import {
  attemptKey,
  attemptLimits,
  filledAlongside,
  lockedUntil,
  portalLimits,
  statusOf,
  type AffiliateAccounts,
  type AffiliateSession,
  type AffiliateSessionStore,
  type SignInAttempts,
} from '../domain/affiliate-portal';
import type { Clock } from '../domain/enterprise';
import { portalCsrf, startedSession } from '../domain/sessions';
import { signOut } from '../http/session-cookie';
import { logger } from '../runtime/logger';
import { preSession, type PortalWork } from './checks';
import { clearedCookie, PRE_SESSION_COOKIE, portalCookie, SESSION_COOKIE, sessionCookie } from './cookies';
import { AccountStatusPage, LockedPage, LoginPage, minutesUntil } from './pages/access';
import { page, seeOther } from './render';
import { clientIpOf } from './request';

export interface SignInPorts {
  affiliates: Pick<AffiliateAccounts, 'findByLogin'>;
  sessions: Pick<AffiliateSessionStore, 'put'>;
  attempts: SignInAttempts;
  verifyPassword: (password: string, stored: string) => Promise<boolean>;
  /** A hash of no one's password: what an unknown login is checked against (made when first needed). */
  decoyHash: () => Promise<string>;
  newSessionId: () => string;
  now: Clock;
}

export interface SignInRequest {
  appId: string;
  login: string;
  password: string;
  clientIp: string;
  cookieSecure: boolean;
}

export type SignInOutcome =
  | { outcome: 'signed-in'; sessionId: string; session: AffiliateSession }
  | { outcome: 'invalid' }
  | { outcome: 'locked'; until: Date }
  | { outcome: 'pending' | 'suspended' };

export function signInToPortal(ports: SignInPorts) {
  return async (request: SignInRequest): Promise<SignInOutcome> => {
    const login = request.login.trim();
    if (!login || login.length > portalLimits.loginLength || !request.password || request.password.length > portalLimits.passwordMaxLength) {
      return { outcome: 'invalid' };
    }
    const now = ports.now();
    const accountKey = attemptKey({ kind: 'account', appId: request.appId, login });
    const clientKey = attemptKey({ kind: 'client', appId: request.appId, ip: request.clientIp });
    const window = portalLimits.attemptWindowMs;
    // The address first: an address that is locked spends nothing of the account's attempts.
    const client = await ports.attempts.admit(clientKey, attemptLimits.client, now, window);
    if (!client.admitted) return { outcome: 'locked', until: new Date(client.window.ends_at) };
    const account = await ports.attempts.admit(accountKey, attemptLimits.account, now, window);
    if (!account.admitted) {
      await ports.attempts.release(clientKey, client.window.ends_at);
      return { outcome: 'locked', until: new Date(account.window.ends_at) };
    }
    const countFailure = () => Promise.all([ports.attempts.recordFailure(accountKey, now, window), ports.attempts.recordFailure(clientKey, now, window)]);

    // Asked for whatever the login: the one-time cost of making it must not tell a known login from an unknown one.
    const decoyHash = await ports.decoyHash();
    const affiliate = await ports.affiliates.findByLogin(request.appId, login);
    const passwordOk = await ports.verifyPassword(request.password, affiliate?.password_hash ?? decoyHash);
    if (!affiliate || !passwordOk) {
      const locked = lockedUntil(...(await countFailure()));
      return locked ? { outcome: 'locked', until: locked } : { outcome: 'invalid' };
    }

    // The lock again, after the check: attempts checked alongside this one may have filled a window meanwhile.
    const [accountNow, clientNow] = await ports.attempts.current([accountKey, clientKey], ports.now());
    const locked = lockedUntil(accountNow, clientNow);
    if (locked && (filledAlongside(account.window, accountNow, attemptLimits.account) || filledAlongside(client.window, clientNow, attemptLimits.client))) {
      await countFailure();
      return { outcome: 'locked', until: locked };
    }
    // Proven: the account's window is cleared; the address keeps its failures but not this attempt.
    await Promise.all([ports.attempts.clear(accountKey), ports.attempts.release(clientKey, client.window.ends_at)]);
    const status = statusOf(affiliate);
    if (status !== 'approved') return { outcome: status };
    const sessionId = ports.newSessionId();
    const session: AffiliateSession = { ...startedSession(sessionId, request.appId, now, request.cookieSecure), affiliate_id: affiliate.affiliate_id };
    await ports.sessions.put(session);
    return { outcome: 'signed-in', sessionId, session };
  };
}

export interface SignInRoutePorts extends SignInPorts {
  sessions: Pick<AffiliateSessionStore, 'put' | 'delete'>;
}

/** What the sign-in page says on arrival, from where the person came (sign-out, reset, an ended session). */
const notices = ['signed-out', 'reset', 'expired'] as const;

/** The sign-in form (login_url of register_affiliate), signing in, and signing out. */
export function signInWork(ports: SignInRoutePorts): Pick<PortalWork, 'AffiliateLoginPage' | 'AffiliateSignIn' | 'AffiliateSignOut'> {
  const signIn = signInToPortal(ports);
  return {
    AffiliateLoginPage: async (visit) => {
      const pre = preSession(visit);
      const notice = notices.find((candidate) => candidate === visit.event.queryStringParameters?.notice);
      const joinOpen = visit.app.affiliate_signup === 'open';
      return page(200, h(LoginPage, { appName: visit.app.name, csrf: portalCsrf.tokenFor(pre.id), problem: notice, joinOpen }), { cookies: pre.cookies });
    },

    AffiliateSignIn: async ({ event, app, appId, cookieSecure, form }) => {
      const result = await signIn({ appId, login: form.login ?? '', password: form.password ?? '', clientIp: clientIpOf(event), cookieSecure });
      switch (result.outcome) {
        case 'signed-in':
          logger.info('Affiliate signed in', { app_id: appId, affiliate_id: result.session.affiliate_id });
          return seeOther('./', { cookies: [sessionCookie(result.sessionId, appId, cookieSecure), clearedCookie(PRE_SESSION_COOKIE, appId, cookieSecure)] });
        case 'invalid':
          return page(
            401,
            h(LoginPage, { appName: app.name, csrf: form.csrf, login: form.login, problem: 'invalid', joinOpen: app.affiliate_signup === 'open' }),
          );
        case 'locked': {
          logger.warn('Affiliate sign-in locked', { app_id: appId });
          const now = ports.now();
          return page(429, h(LockedPage, { appName: app.name, minutes: minutesUntil(result.until, now) }), {
            headers: { 'Retry-After': String(Math.max(1, Math.ceil((result.until.getTime() - now.getTime()) / 1000))) },
          });
        }
        default:
          return page(403, h(AccountStatusPage, { appName: app.name, status: result.outcome }));
      }
    },

    // Ends the session the cookie names server-side, live or not.
    AffiliateSignOut: async ({ appId, sessionId }) => {
      const { ended, clearCookie } = await signOut(ports.sessions, sessionId, portalCookie(SESSION_COOKIE, appId));
      logger.info('Affiliate signed out', { app_id: appId, ended: ended !== undefined });
      return seeOther('login?notice=signed-out', { cookies: [clearCookie] });
    },
  };
}
