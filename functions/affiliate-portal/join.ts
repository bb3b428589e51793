/**
 * "Join the programme": anyone may apply, where the application has opened
 * it (`affiliate_signup: open`; closed, the page is the 404 page). An
 * application is register_affiliate's very use case and schema, its messages
 * included, with the new affiliate always `pending`: the operator approves.
 * Floods are bounded by a count per client address (a window of the sign-in
 * counters): every application waits for a person to approve it, so what a
 * flood could cost is items and that person's time, and a count bounds both
 * where a honeypot stops only bots that fill every field (and trips autofill).
 */
import { h } from 'preact';
import { validRegistration } from '../back-office/affiliate-registration-schema';
import type { Registration } from '../back-office/affiliate-registration-schema';
import type { RegisterAffiliateInput } from '../back-office/affiliate-registration-schema';
import { attemptKey, portalLimits, type SignInAttempts } from '../domain/affiliate-portal';
import type { Clock } from '../domain/enterprise';
import { ValidationError } from '../domain/errors';
import { portalCsrf } from '../domain/sessions';
import { logger } from '../runtime/logger';
import { preSession, type PortalWork, type Visit } from './checks';
import { NotFoundPage } from './pages/access';
import { JoinPage, JoinReceivedPage } from './pages/join';
import { profileFields, problemsByField } from './profile';
import { page, seeOther } from './render';
import { passwordProblems } from './reset';
import { clientIpOf } from './request';

/** Applications one client address may send per attempt window (15 minutes), refused ones included. */
export const joinsPerWindow = 10;

/** The fields the join form posts to the use case: a profile's, and how the affiliate signs in. */
export const joinFields = ['email', 'username', 'password', ...profileFields] as const;

export interface JoinPorts {
  register: (input: RegisterAffiliateInput, callerAppId: string, options: { pending: true }) => Promise<Registration>;
  attempts: Pick<SignInAttempts, 'recordFailure'>;
  now: Clock;
}

export type JoinOutcome =
  | { outcome: 'applied'; affiliateId: string }
  | { outcome: 'problems'; errors: Record<string, string> }
  | { outcome: 'throttled'; until: Date };

export function applyToJoin(ports: JoinPorts) {
  return async (appId: string, form: Record<string, string>, clientIp: string): Promise<JoinOutcome> => {
    const now = ports.now();
    const counted = await ports.attempts.recordFailure(attemptKey({ kind: 'client', appId, ip: `join#${clientIp}` }), now, portalLimits.attemptWindowMs);
    if (counted.failures > joinsPerWindow) return { outcome: 'throttled', until: new Date(counted.ends_at) };
    // Only the form's own fields, so the use case's "unknown field" never answers a person; an empty contact is not given.
    const given = Object.fromEntries(joinFields.filter((field) => form[field] !== undefined).map((field) => [field, form[field]]));
    try {
      const input = validRegistration({ ...given, app_id: appId });
      // The form asks for the password twice: a typo here would lock the person out of an account they cannot yet use.
      const mismatch = passwordProblems(input.password, form.confirm ?? '');
      if (mismatch.confirm) return { outcome: 'problems', errors: { confirm: mismatch.confirm } };
      const registration = await ports.register(input, appId, { pending: true });
      return { outcome: 'applied', affiliateId: registration.affiliate_id };
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return { outcome: 'problems', errors: problemsByField(error, joinFields) };
    }
  };
}

const signupOpen = (visit: Pick<Visit, 'app'>) => visit.app.affiliate_signup === 'open';

export function joinWork(ports: JoinPorts): Pick<PortalWork, 'AffiliateJoinPage' | 'AffiliateJoin'> {
  const apply = applyToJoin(ports);
  const notFound = () => page(404, h(NotFoundPage, { missing: 'page' }));
  return {
    AffiliateJoinPage: async (visit) => {
      if (!signupOpen(visit)) return notFound();
      if (visit.event.queryStringParameters?.received !== undefined) return page(200, h(JoinReceivedPage, { appName: visit.app.name }));
      const pre = preSession(visit);
      return page(200, h(JoinPage, { appName: visit.app.name, csrf: portalCsrf.tokenFor(pre.id) }), { cookies: pre.cookies });
    },

    AffiliateJoin: async (visit) => {
      if (!signupOpen(visit)) return notFound();
      const { app, appId, form, event } = visit;
      const result = await apply(appId, form, clientIpOf(event));
      switch (result.outcome) {
        case 'applied':
          logger.info('Affiliate applied through the join page', { app_id: appId, affiliate_id: result.affiliateId });
          return seeOther('join?received');
        case 'problems':
          // The form back as it was sent, but never the password.
          return page(400, h(JoinPage, { appName: app.name, csrf: form.csrf ?? '', values: { ...form, password: '', confirm: '' }, errors: result.errors }));
        case 'throttled': {
          logger.warn('Affiliate join refused: too many from one address', { app_id: appId });
          const seconds = Math.max(1, Math.ceil((result.until.getTime() - ports.now().getTime()) / 1000));
          return page(429, h(JoinPage, { appName: app.name, csrf: form.csrf ?? '', values: {}, throttled: Math.ceil(seconds / 60) }), {
            headers: { 'Retry-After': String(seconds) },
          });
        }
      }
    },
  };
}
