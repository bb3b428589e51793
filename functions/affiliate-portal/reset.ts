/**
 * Password reset: a person gives an email; if an affiliate of this
 * application has it, a single-use link valid for an hour goes to that
 * address through the application's email channel (its first enabled one).
 * The answer is the same either way. Setting the new password uses the
 * token, stores a new scrypt hash and ends every session of the affiliate.
 */
import { h } from 'preact';
import {
  attemptKey,
  portalLimits,
  type AffiliateAccounts,
  type AffiliateSessionStore,
  type ResetToken,
  type ResetTokenStore,
  type SignInAttempts,
} from '../domain/affiliate-portal';
import type { App } from '../domain/apps';
import { senderHeldBy, type Channel, type ChannelStore, type SenderStore } from '../domain/channels';
import { canonicalAddress, formatAddress, type Mailer } from '../domain/email';
import type { Clock } from '../domain/enterprise';
import { issuedToken, type TokenConsumption } from '../domain/one-time-tokens';
import { hashSecret, SECRET_PATTERN } from '../domain/secrets-random';
import { portalCsrf } from '../domain/sessions';
import { logger } from '../runtime/logger';
import { preSession, type PortalWork, type Visit } from './checks';
import { portalPath } from './cookies';
import { ForgotPage, ResetLinkRefusedPage, ResetPage, ResetSentPage, ResetUnavailablePage } from './pages/access';
import { resetMail, type ResetMail } from './pages/reset-mail';
import { page, seeOther } from './render';

/** Reset mails one address may be sent per attempt window: a form cannot be used to flood a mailbox. */
export const resetMailsPerWindow = 3;

export interface RequestResetPorts {
  affiliates: Pick<AffiliateAccounts, 'findByEmail'>;
  tokens: Pick<ResetTokenStore, 'put'>;
  channels: Pick<ChannelStore, 'listByApp'>;
  /** Who holds a sender: a channel sends only while the application does (docs/api.md, "Senders"). */
  senders: Pick<SenderStore, 'holders'>;
  attempts: Pick<SignInAttempts, 'recordFailure'>;
  mailer: Mailer;
  newToken: () => string;
  now: Clock;
}

export type ResetRequestOutcome = 'sent' | 'no-affiliate' | 'no-channel' | 'throttled' | 'invalid';

/** The application's first enabled channel whose sender it still holds: never a sender released or reassigned since. */
async function sendingChannel(ports: Pick<RequestResetPorts, 'channels' | 'senders'>, appId: string): Promise<Channel | undefined> {
  for (const channel of await ports.channels.listByApp(appId)) {
    if (channel.enabled && senderHeldBy(await ports.senders.holders(canonicalAddress(channel.from_email)), appId)) return channel;
  }
  return undefined;
}

export function requestPasswordReset(ports: RequestResetPorts) {
  return async (
    app: App,
    email: string,
    resetUrl: (token: string) => string,
    compose: (link: string, firstName: string) => ResetMail,
  ): Promise<ResetRequestOutcome> => {
    const address = email.trim();
    if (!address || address.length > portalLimits.loginLength || !address.includes('@')) return 'invalid';
    const affiliate = await ports.affiliates.findByEmail(app.app_id, address);
    if (!affiliate) return 'no-affiliate';
    const channel = await sendingChannel(ports, app.app_id);
    if (!channel) return 'no-channel';
    const now = ports.now();
    const sent = await ports.attempts.recordFailure(
      attemptKey({ kind: 'account', appId: app.app_id, login: `reset:${address}` }),
      now,
      portalLimits.attemptWindowMs,
    );
    if (sent.failures > resetMailsPerWindow) return 'throttled';

    const token = ports.newToken();
    await ports.tokens.put({ ...issuedToken(token, now, portalLimits.resetTokenLifetimeMs), app_id: app.app_id, affiliate_id: affiliate.affiliate_id });
    const mail = compose(resetUrl(token), affiliate.first_name);
    await ports.mailer.send({
      from: formatAddress(canonicalAddress(channel.from_email), channel.from_name),
      to: [formatAddress(affiliate.email, `${affiliate.first_name} ${affiliate.last_name}`)],
      replyTo: [],
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      tags: { app_id: app.app_id, channel_id: channel.channel_id },
    });
    return 'sent';
  };
}

export interface ShowResetPorts {
  tokens: Pick<ResetTokenStore, 'peek'>;
  now: Clock;
}

/** Whether the link's token can still be used, for the page that asks for the new password. */
export function checkResetToken(ports: ShowResetPorts) {
  return async (appId: string, token: string | undefined): Promise<TokenConsumption<ResetToken>['outcome']> => {
    if (!token || !SECRET_PATTERN.test(token)) return 'unknown';
    const found = await ports.tokens.peek(hashSecret(token), ports.now());
    return found.outcome === 'consumed' && found.token.app_id !== appId ? 'unknown' : found.outcome;
  };
}

export interface CompleteResetPorts {
  tokens: Pick<ResetTokenStore, 'consume'>;
  affiliates: Pick<AffiliateAccounts, 'get' | 'setPasswordHash'>;
  sessions: Pick<AffiliateSessionStore, 'deleteAllOf'>;
  attempts: Pick<SignInAttempts, 'clear'>;
  hashPassword: (password: string) => Promise<string>;
  now: Clock;
}

export type ResetCompletion =
  | { outcome: 'reset'; affiliateId: string; sessionsEnded: number }
  | { outcome: 'problems'; errors: { password?: string; confirm?: string } }
  | { outcome: 'used' | 'expired' | 'unknown' };

export function passwordProblems(password: string, confirm: string): { password?: string; confirm?: string } {
  if (password.length < portalLimits.passwordMinLength) return { password: `Use at least ${portalLimits.passwordMinLength} characters.` };
  if (password.length > portalLimits.passwordMaxLength) return { password: `Use at most ${portalLimits.passwordMaxLength} characters.` };
  if (password !== confirm) return { confirm: 'The two passwords are not the same.' };
  return {};
}

export function completePasswordReset(ports: CompleteResetPorts) {
  return async (appId: string, token: string | undefined, password: string, confirm: string): Promise<ResetCompletion> => {
    if (!token || !SECRET_PATTERN.test(token)) return { outcome: 'unknown' };
    // Checked before the token is used, so a typo does not cost the link.
    const errors = passwordProblems(password, confirm);
    if (Object.keys(errors).length > 0) return { outcome: 'problems', errors };
    const now = ports.now();
    const used = await ports.tokens.consume(hashSecret(token), now);
    if (used.outcome !== 'consumed') return { outcome: used.outcome };
    if (used.token.app_id !== appId) return { outcome: 'unknown' };
    const affiliate = await ports.affiliates.get(appId, used.token.affiliate_id);
    if (!affiliate) return { outcome: 'unknown' };
    await ports.affiliates.setPasswordHash(appId, affiliate.affiliate_id, await ports.hashPassword(password), now);
    const sessionsEnded = await ports.sessions.deleteAllOf(appId, affiliate.affiliate_id);
    // The account was proven: lift a lockout on either of its logins.
    await Promise.all([affiliate.username, affiliate.email].map((login) => ports.attempts.clear(attemptKey({ kind: 'account', appId, login }))));
    return { outcome: 'reset', affiliateId: affiliate.affiliate_id, sessionsEnded };
  };
}

export type ResetRoutePorts = RequestResetPorts & ShowResetPorts & CompleteResetPorts;

/**
 * Without a portal origin there is no address of the operator's for a mailed link, and the request's own host is
 * the sender's to choose: no reset until one is set (as the enterprise sign-in answers 409 without one).
 */
function resetUnavailable({ app, appId }: Pick<Visit, 'app' | 'appId'>) {
  logger.warn('Password reset refused: the application has no portal origin', { app_id: appId });
  return page(409, h(ResetUnavailablePage, { appName: app.name }));
}

/** The two forms of a forgotten password: the email to mail a link to, and the new password the link leads to. */
export function resetWork(
  ports: ResetRoutePorts,
): Pick<PortalWork, 'AffiliateForgotPage' | 'AffiliateRequestReset' | 'AffiliateResetPage' | 'AffiliateResetPassword'> {
  const requestReset = requestPasswordReset(ports);
  const check = checkResetToken(ports);
  const complete = completePasswordReset(ports);
  return {
    AffiliateForgotPage: async (visit) => {
      if (!visit.portalOrigin) return resetUnavailable(visit);
      const pre = preSession(visit);
      return page(200, h(ForgotPage, { appName: visit.app.name, csrf: portalCsrf.tokenFor(pre.id) }), { cookies: pre.cookies });
    },

    // Mails a reset link if the email is an affiliate's; the page says the same either way.
    AffiliateRequestReset: async (visit) => {
      const { app, appId, portalOrigin, form } = visit;
      if (!portalOrigin) return resetUnavailable(visit);
      const outcome = await requestReset(
        app,
        form.email ?? '',
        (token) => `${portalOrigin}${portalPath(appId)}reset?token=${token}`,
        (link, firstName) => resetMail(link, firstName, app.name),
      );
      // Only the log tells the outcomes apart; the person sees the same page.
      if (outcome === 'no-channel')
        logger.warn('Password reset not sent: the application has no enabled email channel with a sender assigned to it', { app_id: appId });
      else logger.info('Password reset requested', { app_id: appId, outcome });
      if (outcome === 'invalid') {
        return page(400, h(ForgotPage, { appName: app.name, csrf: form.csrf, email: form.email, error: 'Enter the email address of your account.' }));
      }
      return page(200, h(ResetSentPage, { appName: app.name }));
    },

    // The new-password form, if the link can still be used.
    AffiliateResetPage: async (visit) => {
      const token = visit.event.queryStringParameters?.token;
      const state = await check(visit.appId, token);
      if (state !== 'consumed') return page(state === 'unknown' ? 404 : 410, h(ResetLinkRefusedPage, { appName: visit.app.name, reason: state }));
      const pre = preSession(visit);
      return page(200, h(ResetPage, { appName: visit.app.name, csrf: portalCsrf.tokenFor(pre.id), token: token ?? '' }), { cookies: pre.cookies });
    },

    // Uses the token once, stores the new password, ends every session of the affiliate.
    AffiliateResetPassword: async ({ app, appId, form }) => {
      const result = await complete(appId, form.token, form.password ?? '', form.confirm ?? '');
      switch (result.outcome) {
        case 'reset':
          logger.info('Affiliate password reset', { app_id: appId, affiliate_id: result.affiliateId, sessions_ended: result.sessionsEnded });
          return seeOther('login?notice=reset');
        case 'problems':
          return page(400, h(ResetPage, { appName: app.name, csrf: form.csrf, token: form.token ?? '', errors: result.errors }));
        default:
          return page(result.outcome === 'unknown' ? 404 : 410, h(ResetLinkRefusedPage, { appName: app.name, reason: result.outcome }));
      }
    },
  };
}
