/**
 * The signed-in affiliate's profile: its names and contacts under
 * register_affiliate's very rules (its schema's fields, normalised as it
 * normalises them), and a password change. Email and username are shown, not
 * edited: they are how the affiliate signs in and how the operator knows it,
 * and changing them would need the claims' uniqueness moved in one transaction
 * (the operator can help). A password change checks the current password under
 * the sign-in lockout of the account, ends every session of the affiliate and
 * starts a new one for this browser. Both changes are audited, naming fields,
 * never their values.
 */
import { h } from 'preact';
import { firstPerField, normaliseRegistration, registerAffiliateSchema } from '../back-office/affiliate-registration-schema';
import { audit } from '../back-office/audit';
import type { BackOffice } from '../back-office/ports';
import {
  attemptKey,
  attemptLimits,
  portalLimits,
  type AffiliateAccounts,
  type AffiliateProfile,
  type AffiliateSession,
  type AffiliateSessionStore,
  type SignInAttempts,
} from '../domain/affiliate-portal';
import { affiliateContactFields, type AffiliateRecord } from '../domain/affiliates';
import type { AuditActor } from '../domain/audit';
import type { Clock } from '../domain/enterprise';
import { ValidationError } from '../domain/errors';
import { portalCsrf, startedSession } from '../domain/sessions';
import { compileValidator } from '../domain/validation';
import { logger } from '../runtime/logger';
import type { PortalWork, SignedInVisit } from './checks';
import { sessionCookie } from './cookies';
import { ProfilePage, type ProfileView } from './pages/profile';
import { page, seeOther } from './render';
import { passwordProblems } from './reset';

const { first_name, last_name, ...registration } = registerAffiliateSchema.properties;
const contactProperties = Object.fromEntries(affiliateContactFields.map((field) => [field, registration[field]])) as Pick<
  typeof registration,
  (typeof affiliateContactFields)[number]
>;

/** register_affiliate's rules for the fields a profile holds: one message per field, naming it. */
export const profileSchema = {
  type: 'object',
  required: ['first_name', 'last_name'],
  additionalProperties: false,
  properties: { first_name, last_name, ...contactProperties },
} as const;

const shape = compileValidator(profileSchema, 'profile', firstPerField);

/** The profile fields a form may post, in the order the page shows them. */
export const profileFields = ['first_name', 'last_name', ...affiliateContactFields] as const;
export type ProfileField = (typeof profileFields)[number];

/** The form's profile: trimmed, empty contacts dropped, every other posted field ignored; or the problems by field. */
export function validProfile(form: Record<string, string>): AffiliateProfile {
  const given = Object.fromEntries(profileFields.filter((field) => form[field] !== undefined).map((field) => [field, form[field]]));
  return shape(normaliseRegistration(given));
}

/** The use case's messages (`telegram must be …`) by field, for the field's error line. */
export function problemsByField(error: ValidationError, fields: readonly string[]): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const message of error.errors) {
    const field = fields.find((name) => message.startsWith(`${name} `));
    if (field) byField[field] ??= `${message.charAt(0).toUpperCase()}${message.slice(1).replaceAll('_', ' ')}.`;
  }
  return byField;
}

/** Who acted, in the audit log: the affiliate itself. */
export const affiliateActor = (affiliate: Pick<AffiliateRecord, 'affiliate_id' | 'email'>): AuditActor => ({
  user_id: `affiliate:${affiliate.affiliate_id}`,
  email: affiliate.email,
});

export interface ProfilePorts {
  accounts: Pick<AffiliateAccounts, 'setProfile' | 'setPasswordHash'>;
  sessions: Pick<AffiliateSessionStore, 'put' | 'deleteAllOf'>;
  attempts: SignInAttempts;
  audit: BackOffice['audit'];
  verifyPassword: (password: string, stored: string) => Promise<boolean>;
  hashPassword: (password: string) => Promise<string>;
  newSessionId: () => string;
  now: Clock;
}

export type ProfileUpdate = { outcome: 'saved'; changed: string[] } | { outcome: 'problems'; errors: Record<string, string> };

export function updateProfile(ports: Pick<ProfilePorts, 'accounts' | 'audit' | 'now'>) {
  return async (affiliate: AffiliateRecord, form: Record<string, string>): Promise<ProfileUpdate> => {
    let profile: AffiliateProfile;
    try {
      profile = validProfile(form);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return { outcome: 'problems', errors: problemsByField(error, profileFields) };
    }
    const changed = profileFields.filter((field) => (profile[field] ?? '') !== (affiliate[field] ?? ''));
    if (changed.length === 0) return { outcome: 'saved', changed };
    const now = ports.now();
    await ports.accounts.setProfile(affiliate.app_id, affiliate.affiliate_id, profile, now);
    // Contacts are where payments and offers go: the operator wants to see that they changed, not to what.
    await audit({ audit: ports.audit, now: () => now })({
      appId: affiliate.app_id,
      actor: affiliateActor(affiliate),
      action: 'affiliate.profile_changed',
      target: `affiliate:${affiliate.affiliate_id}`,
      details: { fields: changed },
    });
    return { outcome: 'saved', changed };
  };
}

export type PasswordChange =
  | { outcome: 'changed'; sessionId: string; session: AffiliateSession; sessionsEnded: number }
  | { outcome: 'problems'; errors: { current?: string; password?: string; confirm?: string } }
  | { outcome: 'locked'; until: Date };

export function changePassword(ports: ProfilePorts) {
  return async (affiliate: AffiliateRecord, input: { current: string; password: string; confirm: string }, cookieSecure: boolean): Promise<PasswordChange> => {
    const appId = affiliate.app_id;
    // The sign-in lockout's counter of this account: a stolen session cannot guess the password faster here than at sign-in.
    const key = attemptKey({ kind: 'account', appId, login: affiliate.username });
    const now = ports.now();
    const admitted = await ports.attempts.admit(key, attemptLimits.account, now, portalLimits.attemptWindowMs);
    if (!admitted.admitted) return { outcome: 'locked', until: new Date(admitted.window.ends_at) };
    const currentOk =
      input.current.length > 0 &&
      input.current.length <= portalLimits.passwordMaxLength &&
      (await ports.verifyPassword(input.current, affiliate.password_hash));
    if (!currentOk) {
      const failed = await ports.attempts.recordFailure(key, now, portalLimits.attemptWindowMs);
      if (failed.attempts >= attemptLimits.account) return { outcome: 'locked', until: new Date(failed.ends_at) };
      return { outcome: 'problems', errors: { current: 'That is not your current password.' } };
    }
    await ports.attempts.release(key, admitted.window.ends_at);
    const errors = passwordProblems(input.password, input.confirm);
    if (Object.keys(errors).length > 0) return { outcome: 'problems', errors };

    await ports.accounts.setPasswordHash(appId, affiliate.affiliate_id, await ports.hashPassword(input.password), now);
    // Every session ends, this one too; this browser goes on in a new one (a new id: the old cookie is worth nothing anywhere).
    const sessionsEnded = await ports.sessions.deleteAllOf(appId, affiliate.affiliate_id);
    const sessionId = ports.newSessionId();
    const session: AffiliateSession = { ...startedSession(sessionId, appId, now, cookieSecure), affiliate_id: affiliate.affiliate_id };
    await ports.sessions.put(session);
    await audit({ audit: ports.audit, now: () => now })({
      appId,
      actor: affiliateActor(affiliate),
      action: 'affiliate.password_changed',
      target: `affiliate:${affiliate.affiliate_id}`,
      details: { sessions_ended: sessionsEnded },
    });
    return { outcome: 'changed', sessionId, session, sessionsEnded };
  };
}

const notices = ['saved', 'password'] as const;

export function profileWork(ports: ProfilePorts): Pick<PortalWork, 'AffiliateProfilePage' | 'AffiliateUpdateProfile' | 'AffiliateChangePassword'> {
  const update = updateProfile(ports);
  const change = changePassword(ports);

  const profilePage = (visit: SignedInVisit, status: number, view: Partial<ProfileView>, headers?: Record<string, string>) =>
    page(status, h(ProfilePage, { appName: visit.app.name, affiliate: visit.affiliate, csrf: portalCsrf.tokenFor(visit.sessionId), ...view }), { headers });

  return {
    AffiliateProfilePage: async (visit) => profilePage(visit, 200, { notice: notices.find((notice) => notice === visit.event.queryStringParameters?.saved) }),

    AffiliateUpdateProfile: async (visit) => {
      const { appId, affiliate, form } = visit;
      const result = await update(affiliate, form);
      if (result.outcome === 'problems') return profilePage(visit, 400, { form, profileErrors: result.errors });
      logger.info('Affiliate profile saved', { app_id: appId, affiliate_id: affiliate.affiliate_id, changed: result.changed.length });
      return seeOther('profile?saved=saved');
    },

    AffiliateChangePassword: async (visit) => {
      const { appId, affiliate, form, cookieSecure } = visit;
      const result = await change(affiliate, { current: form.current ?? '', password: form.password ?? '', confirm: form.confirm ?? '' }, cookieSecure);
      switch (result.outcome) {
        case 'changed':
          logger.info('Affiliate password changed', { app_id: appId, affiliate_id: affiliate.affiliate_id, sessions_ended: result.sessionsEnded });
          return seeOther('profile?saved=password', { cookies: [sessionCookie(result.sessionId, appId, cookieSecure)] });
        case 'problems':
          return profilePage(visit, 400, { passwordErrors: result.errors });
        case 'locked': {
          logger.warn('Affiliate password change locked', { app_id: appId });
          const seconds = Math.max(1, Math.ceil((result.until.getTime() - ports.now().getTime()) / 1000));
          const minutes = Math.ceil(seconds / 60);
          return profilePage(
            visit,
            429,
            { passwordErrors: { current: `Too many wrong passwords: try again in about ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.` } },
            { 'Retry-After': String(seconds) },
          );
        }
      }
    },
  };
}
