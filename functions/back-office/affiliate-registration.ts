/**
 * Registers an affiliate of an application: approved or pending and on the
 * default plan by the application's settings, the password hashed, email and
 * username claimed atomically (a used one is answered "email is invalid" or
 * "username is invalid": docs/api.md, "register_affiliate"), and the address
 * where the affiliate logs in (on the application's portal origin, if it has one).
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { affiliateContactFields, initialStanding, type AffiliateRecord, type AffiliateStore } from '../domain/affiliates';
import type { AppStore } from '../domain/apps';
import type { PlanStore } from '../domain/plans';
import { Forbidden, ValidationError } from '../domain/errors';
import type { RegisterAffiliateInput, Registration } from './affiliate-registration-schema';

export interface RegisterAffiliateDeps {
  affiliates: Pick<AffiliateStore, 'register'>;
  apps: Pick<AppStore, 'get'>;
  /** The default plan's current version: a new affiliate's first deal. */
  plans: Pick<PlanStore, 'get'>;
  hashPassword: (password: string) => Promise<string>;
  newId: () => string;
  now: () => Date;
  log: Pick<Logger, 'warn'>;
}

/** The application's affiliate-portal sign-in page. */
export function loginUrl(portalOrigin: string, appId: string): string {
  return new URL(`/affiliates/${encodeURIComponent(appId)}/login`, portalOrigin).href;
}

/**
 * The login address is on the application's portal origin, or null without
 * one: never on the host the request names, which its sender chooses
 * (docs/api.md, "register_affiliate").
 */
export function registerAffiliate(deps: RegisterAffiliateDeps) {
  // `pending`: the portal's join page, where anyone applies: the operator approves, whatever the application's setting.
  return async (input: RegisterAffiliateInput, callerAppId: string, options: { pending?: boolean } = {}): Promise<Registration> => {
    if (input.app_id !== callerAppId) throw new Forbidden();
    const [app, passwordHash] = await Promise.all([deps.apps.get(input.app_id), deps.hashPassword(input.password)]);
    // A plan archived since it was made the default is still the deal it promised.
    const defaultPlan = app?.default_plan_id ? await deps.plans.get(input.app_id, app.default_plan_id) : undefined;
    const createdAt = deps.now().toISOString();
    const affiliate: AffiliateRecord = {
      app_id: input.app_id,
      affiliate_id: deps.newId(),
      email: input.email,
      username: input.username,
      first_name: input.first_name,
      last_name: input.last_name,
      ...Object.fromEntries(affiliateContactFields.filter((field) => input[field] !== undefined).map((field) => [field, input[field]])),
      password_hash: passwordHash,
      created_at: createdAt,
      ...initialStanding(app, defaultPlan, createdAt),
      ...(options.pending ? { status: 'pending' as const } : {}),
    };
    const outcome = await deps.affiliates.register(affiliate);
    if (!outcome.registered) throw new ValidationError(outcome.taken.map((field) => `${field} is invalid`));
    if (!app?.portal_origin) {
      deps.log.warn('Application has no portal origin; login_url is null until one is set', { app_id: input.app_id });
      return { login_url: null, affiliate_id: affiliate.affiliate_id };
    }
    return { login_url: loginUrl(app.portal_origin, input.app_id), affiliate_id: affiliate.affiliate_id };
  };
}
