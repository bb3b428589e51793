/** The request bodies of the console's settings (docs/api.md, "Back office API", "Settings"): the rules are the back office's, as for the command line. */
import { affiliateApprovals, affiliateSignups } from '../../back-office/apps';
import { scopes } from '../../domain/api-keys';
import { nameSchema } from '../../domain/attributes';
import { emailLimits } from '../../domain/email';
import { searchLimits } from '../../domain/player-search';
import { messagingSettingsSchema } from '../../domain/send-gate';
import { identifierText } from '../../domain/text';
import { compileValidator } from '../../domain/validation';

/** POST /console/api/keys */
export const issueKeyBodySchema = {
  type: 'object',
  required: ['scope'],
  properties: { scope: { type: 'string', enum: scopes } },
  additionalProperties: false,
} as const;

const origin = {
  type: 'string',
  minLength: 1,
  maxLength: 2048,
  description: 'An origin: scheme, host and optional port, e.g. https://portal.example.com.',
} as const;

/** POST /console/api/app: what is given changes; the rest stays. */
export const updateAppBodySchema = {
  type: 'object',
  minProperties: 1,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200, ...identifierText },
    portal_origin: origin,
    site_origins: { type: 'array', maxItems: 50, items: origin, description: 'Replaces the origins allowed to use the browser key.' },
    affiliate_approval: { type: 'string', enum: affiliateApprovals },
    affiliate_signup: { type: 'string', enum: affiliateSignups, description: "Whether the portal's join page takes applications." },
    default_plan_id: { type: 'string', minLength: 1, maxLength: 64, ...identifierText },
    identity_verification: { type: 'string', enum: ['on', 'off'] },
    search_attributes: {
      type: 'array',
      maxItems: searchLimits.attributes,
      uniqueItems: true,
      items: nameSchema(),
      description: 'Replaces the attributes the player search finds players by; applies to profiles applied from then on.',
    },
    messaging: { ...messagingSettingsSchema, description: "Replaces the send gate's settings: caps, quiet hours, time zone, topics, address attributes." },
  },
  additionalProperties: false,
} as const;

/** POST /console/api/channels */
export const createChannelBodySchema = {
  type: 'object',
  required: ['name', 'from_email', 'from_name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: emailLimits.channelNameLength },
    from_email: { type: 'string', minLength: 1, maxLength: 254 },
    from_name: { type: 'string', minLength: 1, maxLength: 200 },
    from_domain: { type: 'string', minLength: 1, maxLength: 253, description: "Any address at this domain (the from email's own) may send." },
  },
  additionalProperties: false,
} as const;

/** POST /console/api/channels/{channel_id} */
export const updateChannelBodySchema = {
  type: 'object',
  minProperties: 1,
  properties: {
    enabled: { type: 'boolean' },
    from_domain: {
      anyOf: [{ type: 'string', minLength: 1, maxLength: 253 }, { type: 'null' }],
      description: "Any address at this domain (the from email's own) may send; null: the from email only.",
    },
  },
  additionalProperties: false,
} as const;

/** POST /console/api/vapid */
export const generateVapidBodySchema = {
  type: 'object',
  properties: {
    subject: {
      type: 'string',
      minLength: 1,
      maxLength: 512,
      description: 'mailto:… or https://…; default: the one the application has, else its https portal origin.',
    },
    rotate: { type: 'boolean', description: 'Replace existing keys: existing subscriptions stop receiving until their page runs initNotification again.' },
  },
  additionalProperties: false,
} as const;

/** POST /console/api/money */
export const setMoneyBodySchema = {
  type: 'object',
  minProperties: 1,
  properties: {
    currency: { type: 'string', description: 'The main currency (ISO 4217, e.g. EUR).' },
    money_events: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Event name → deposit, withdrawal, bet, win or bonus; replaces the mapping.',
    },
  },
  additionalProperties: false,
} as const;

// Checks of the request bodies (functions/domain/validation.ts); precompiled in the bundle.
export const validIssueKeyBody = compileValidator(issueKeyBodySchema);
export const validUpdateAppBody = compileValidator(updateAppBodySchema);
export const validCreateChannelBody = compileValidator(createChannelBodySchema);
export const validUpdateChannelBody = compileValidator(updateChannelBodySchema);
export const validGenerateVapidBody = compileValidator(generateVapidBodySchema);
export const validSetMoneyBody = compileValidator(setMoneyBodySchema);
