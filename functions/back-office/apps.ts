/** Applications: the integrators' tenants, and the origins their portal and site pages are served from. */
import type { App, AppStore } from '../domain/apps';
import { newAppId } from '../domain/api-keys';
import { NotFound, ValidationError } from '../domain/errors';
import { identitySecretName, newIdentitySecret } from '../domain/identity';
import { checkSearchAttributes, searchAttributesOf } from '../domain/player-search';
import { newUnsubscribeKey, unsubscribeKeyName } from '../domain/unsubscribe-token';
import { customNameProblem } from '../domain/attributes';
import {
  DEFAULT_EMAIL_ATTRIBUTE,
  DEFAULT_PHONE_ATTRIBUTE,
  DEFAULT_TIME_ZONE,
  gateChannels,
  messagingSettingsSchema,
  type MessagingSettings,
} from '../domain/send-gate';
import { compileValidator } from '../domain/validation';
import type { AuditActor } from '../domain/audit';
import { audit } from './audit';
import { nowOf, type BackOffice } from './ports';

/** The hosts where plain http is allowed: the loopback names the local stack and a developer's site are served on. */
const loopbackHosts: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/**
 * An origin: scheme, host and optional port, nothing more
 * (`https://play.example.com`). https only: tracking links on urm's shared
 * domain redirect to a site origin, and mailed links point at the portal
 * origin; plain http only on a loopback host (the local stack).
 */
export function checkOrigin(value: string, field: string): string {
  const refused = () => new ValidationError([`${field} must be an origin such as https://portal.example.com`], `${field} is invalid`);
  if (!URL.canParse(value)) throw refused();
  const url = new URL(value);
  if (!['http:', 'https:'].includes(url.protocol) || url.origin !== value.replace(/\/$/, '')) throw refused();
  if (url.protocol === 'http:' && !loopbackHosts.includes(url.hostname)) {
    throw new ValidationError([`${field} must be https (plain http only for localhost, 127.0.0.1 or [::1])`], `${field} is invalid`);
  }
  return url.origin;
}

/** A new application, with the identity secret its integrator's server proves profile ids with: shown this once. */
export type CreatedApp = App & { identity_secret: string };

export async function createApp(
  office: Pick<BackOffice, 'apps' | 'secrets' | 'now'>,
  input: { name: string; portalOrigin?: string; siteOrigins?: string[] },
): Promise<CreatedApp> {
  const name = checkAppName(input.name);
  const app: App = {
    app_id: newAppId(),
    name,
    created_at: nowOf(office).toISOString(),
    identity_verification: 'on',
    ...(input.portalOrigin ? { portal_origin: checkOrigin(input.portalOrigin, 'portal origin') } : {}),
    ...(input.siteOrigins?.length ? { site_origins: input.siteOrigins.map((o) => checkOrigin(o, 'site origin')) } : {}),
  };
  // Identity verification is on from the start (docs/api.md, "The browser key"): the secret first, so the application never lacks it.
  const identitySecret = newIdentitySecret();
  await office.secrets.put(identitySecretName(app.app_id), identitySecret);
  // Its marketing mail's unsubscribe links are signed with this key, never rotated (domain/unsubscribe-token.ts).
  await office.secrets.create(unsubscribeKeyName(app.app_id), newUnsubscribeKey());
  await office.apps.create(app);
  return { ...app, identity_secret: identitySecret };
}

/** An application's name: 1 to 200 characters once trimmed. */
function checkAppName(value: string): string {
  const name = value.trim();
  if (name.length === 0 || name.length > 200) throw new ValidationError(['name must be 1 to 200 characters'], 'name is invalid');
  return name;
}

export async function requireApp(office: { apps: Pick<AppStore, 'get'> }, appId: string): Promise<App> {
  const app = await office.apps.get(appId);
  if (!app) throw new NotFound(`no application ${appId}`);
  return app;
}

export async function listApps(office: Pick<BackOffice, 'apps'>): Promise<App[]> {
  return office.apps.list();
}

/**
 * Changes what is given of an application's name, origins and affiliate
 * settings; `siteOrigins` replaces the list. A default plan must be one of
 * the application's plans. Audited as `app.updated` with each field that
 * changed (`{from, to}`); a call that changes nothing writes no entry.
 * `messaging` replaces the send gate's settings as a whole.
 */
export async function updateApp(
  office: Pick<BackOffice, 'apps' | 'plans' | 'audit' | 'now'>,
  appId: string,
  actor: AuditActor,
  input: {
    name?: string;
    portalOrigin?: string;
    siteOrigins?: string[];
    affiliateApproval?: NonNullable<App['affiliate_approval']>;
    affiliateSignup?: NonNullable<App['affiliate_signup']>;
    defaultPlanId?: string;
    /** Replaces the searchable attributes; applies to profiles applied from then on. */
    searchAttributes?: string[];
    /** Replaces the send gate's settings as a whole (docs/api.md, "Messaging settings"). */
    messaging?: unknown;
  },
): Promise<App> {
  const before = await requireApp(office, appId);
  if (input.affiliateApproval !== undefined && !affiliateApprovals.includes(input.affiliateApproval)) {
    throw new ValidationError([`affiliate approval must be ${affiliateApprovals.join(' or ')}`], 'affiliate approval is invalid');
  }
  if (input.affiliateSignup !== undefined && !affiliateSignups.includes(input.affiliateSignup)) {
    throw new ValidationError([`affiliate signup must be ${affiliateSignups.join(' or ')}`], 'affiliate signup is invalid');
  }
  if (input.defaultPlanId !== undefined) {
    const plan = await office.plans.get(appId, input.defaultPlanId);
    if (!plan) throw new NotFound(`no plan ${input.defaultPlanId} in application ${appId}`);
    if (plan.archived_at !== undefined) throw new ValidationError([`default_plan_id ${input.defaultPlanId} is archived`], 'default plan is invalid');
  }
  const changes = {
    name: input.name === undefined ? undefined : checkAppName(input.name),
    portal_origin: input.portalOrigin === undefined ? undefined : checkOrigin(input.portalOrigin, 'portal origin'),
    site_origins: input.siteOrigins?.map((o) => checkOrigin(o, 'site origin')),
    affiliate_approval: input.affiliateApproval,
    affiliate_signup: input.affiliateSignup,
    default_plan_id: input.defaultPlanId,
    search_attributes: input.searchAttributes === undefined ? undefined : checkSearchAttributes(input.searchAttributes),
    messaging: input.messaging === undefined ? undefined : checkMessagingSettings(input.messaging),
  };
  const searchable = searchAttributesOf(before);
  // The profile consumer gives a player applied before the change its new terms, and takes the old ones back, once.
  const searchChanged = changes.search_attributes !== undefined && changes.search_attributes.join('\u0000') !== searchable.join('\u0000');
  const updated = await office.apps.update(appId, {
    ...changes,
    ...(searchChanged ? { search_attributes_previous: [...searchable], search_attributes_changed_at: nowOf(office).toISOString() } : {}),
  });
  const changed = changedFields(before, updated, Object.keys(changes) as (keyof typeof changes)[]);
  if (Object.keys(changed).length > 0) {
    await audit(office)({ appId, actor, action: 'app.updated', target: `app:${appId}`, details: { changes: changed } });
  }
  return updated;
}

/** The fields of `names` whose value differs between `before` and `after`, as `{from, to}` (null for absent). */
export function changedFields<T extends object>(before: T, after: T, names: readonly (keyof T)[]): Record<string, { from: unknown; to: unknown }> {
  const changed: Record<string, { from: unknown; to: unknown }> = {};
  for (const name of names) {
    const from = before[name] ?? null;
    const to = after[name] ?? null;
    if (canonical(from) !== canonical(to)) changed[name as string] = { from, to };
  }
  return changed;
}

/** JSON with object keys in order: a map read back from the store may list its keys in another order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}

const validMessagingSettings = compileValidator(messagingSettingsSchema, 'messaging');

/** The send gate's settings, as the schema and what it cannot say: unique topics, attribute names, a day's cap within the week's. */
export function checkMessagingSettings(input: unknown): MessagingSettings {
  const settings = validMessagingSettings(input);
  const problems: string[] = [];
  const names = (settings.topics ?? []).map((topic) => topic.name);
  if (new Set(names).size !== names.length) problems.push('messaging.topics: each topic name once');
  for (const field of ['email_attribute', 'phone_attribute'] as const) {
    const name = settings[field];
    const problem = name === undefined ? undefined : customNameProblem(name);
    if (problem) problems.push(`messaging.${field}: ${problem}`);
  }
  for (const channel of gateChannels) {
    const caps = settings.caps?.[channel];
    if (caps?.daily !== undefined && caps.weekly !== undefined && caps.daily > caps.weekly) {
      problems.push(`messaging.caps.${channel}: the daily cap (${caps.daily}) must not be above the weekly cap (${caps.weekly})`);
    }
  }
  if (problems.length > 0) throw new ValidationError(problems, 'messaging is invalid');
  return settings as MessagingSettings;
}

/** The send gate's settings as the back office shows them: every field, the defaults filled, absent caps and window null. */
export function messagingSettingsView(settings: MessagingSettings | undefined) {
  const caps = (channel: (typeof gateChannels)[number]) => ({
    daily: settings?.caps?.[channel]?.daily ?? null,
    weekly: settings?.caps?.[channel]?.weekly ?? null,
  });
  return {
    caps: { email: caps('email'), push: caps('push') },
    quiet_hours: settings?.quiet_hours ? { ...settings.quiet_hours } : null,
    time_zone: settings?.time_zone ?? DEFAULT_TIME_ZONE,
    topics: (settings?.topics ?? []).map(({ name, label }) => ({ name, label })),
    email_attribute: settings?.email_attribute ?? DEFAULT_EMAIL_ATTRIBUTE,
    phone_attribute: settings?.phone_attribute ?? DEFAULT_PHONE_ATTRIBUTE,
  };
}

/** An application's settings as the back office shows them: absent ones null, never a secret. */
export function appSettingsView(app: App) {
  return {
    app_id: app.app_id,
    name: app.name,
    created_at: app.created_at,
    portal_origin: app.portal_origin ?? null,
    site_origins: app.site_origins ?? [],
    identity_verification: app.identity_verification ?? 'on',
    affiliate_approval: app.affiliate_approval ?? 'pending',
    affiliate_signup: app.affiliate_signup ?? 'closed',
    default_plan_id: app.default_plan_id ?? null,
    search_attributes: [...searchAttributesOf(app)],
    messaging: messagingSettingsView(app.messaging),
  };
}

/** What `affiliate_approval` may be: `approve` (new affiliates approved at once) or `pending` (they wait; the default). */
export const affiliateApprovals = ['approve', 'pending'] as const;
/** What `affiliate_signup` may be: `open` (the portal's join page takes applications, each pending) or `closed` (the default: the page is a 404). */
export const affiliateSignups = ['open', 'closed'] as const;
