/**
 * Signing in to an application's portal with username or email and password,
 * and signing out. Failed attempts are counted per account (the login as
 * typed) and per client address; past the limit both are refused until their
 * window ends, even with the right password. The answer never says which of
 * login or password was wrong; an unknown login costs the same scrypt work as
 * a known one.
 */
import { h } from 'preact';
import {
  attemptKey,
  csrfTokenFor,
  lockedUntil,
  portalLimits,
  statusOf,
  type AffiliateAccounts,
  type AffiliateSession,
  type AffiliateSessionStore,
  type SignInAttempts,
} from '../domain/affiliate-portal';
import { hashSecret, type Clock } from '../domain/enterprise';
import { logger } from '../runtime/logger';
import { preSession, type PortalWork } from './checks';
import { clearedCookie, PRE_SESSION_COOKIE, SESSION_COOKIE, sessionCookie } from './cookies';
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
    const [account, client] = await ports.attempts.current([accountKey, clientKey], now);
    const locked = lockedUntil(account, client);
    if (locked) return { outcome: 'locked', until: locked };

    // Asked for whatever the login: the one-time cost of making it must not tell a known login from an unknown one.
    const decoyHash = await ports.decoyHash();
    const affiliate = await ports.affiliates.findByLogin(request.appId, login);
    const passwordOk = await ports.verifyPassword(request.password, affiliate?.password_hash ?? decoyHash);
    if (!affiliate || !passwordOk) {
      const counted = await Promise.all([
        ports.attempts.recordFailure(accountKey, now, portalLimits.attemptWindowMs),
        ports.attempts.recordFailure(clientKey, now, portalLimits.attemptWindowMs),
      ]);
      const lockedNow = lockedUntil(...counted);
      return lockedNow ? { outcome: 'locked', until: lockedNow } : { outcome: 'invalid' };
    }

    await ports.attempts.clear(accountKey);
    const status = statusOf(affiliate);
    if (status !== 'approved') return { outcome: status };
    const sessionId = ports.newSessionId();
    const session: AffiliateSession = {
      session_hash: hashSecret(sessionId),
      app_id: request.appId,
      affiliate_id: affiliate.affiliate_id,
      created_at: now.toISOString(),
      last_seen: now.toISOString(),
      cookie_secure: request.cookieSecure,
    };
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
      return page(200, h(LoginPage, { appName: visit.app.name, csrf: csrfTokenFor(pre.id), problem: notice }), { cookies: pre.cookies });
    },

    AffiliateSignIn: async ({ event, app, appId, cookieSecure, form }) => {
      const result = await signIn({ appId, login: form.login ?? '', password: form.password ?? '', clientIp: clientIpOf(event), cookieSecure });
      switch (result.outcome) {
        case 'signed-in':
          logger.info('Affiliate signed in', { app_id: appId, affiliate_id: result.session.affiliate_id });
          return seeOther('./', { cookies: [sessionCookie(result.sessionId, appId, cookieSecure), clearedCookie(PRE_SESSION_COOKIE, appId, cookieSecure)] });
        case 'invalid':
          return page(401, h(LoginPage, { appName: app.name, csrf: form.csrf, login: form.login, problem: 'invalid' }));
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
      const ended = await ports.sessions.delete(hashSecret(sessionId));
      logger.info('Affiliate signed out', { app_id: appId, ended: ended !== undefined });
      // The Secure attribute it was set with (none when unknown: accepted from any origin).
      return seeOther('login?notice=signed-out', { cookies: [clearedCookie(SESSION_COOKIE, appId, ended?.cookie_secure ?? false)] });
    },
  };
}
