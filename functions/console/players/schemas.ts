/** The query strings and bodies of the console's players (docs/api.md, "Back office API", "Players", "Messaging a player"). */
import { actionIdSchema, sendPurposeProperties } from '../../back-office/messaging';
import { nameSchema, profileIdSchema, valueSchema } from '../../domain/attributes';
import { limits } from '../../domain/limits';
import { identifierText } from '../../domain/text';
import { compileValidator } from '../../domain/validation';
import { emailMessageProperties } from '../../messaging/email';
import { pushMessageProperties } from '../../messaging/push';

/** GET /console/api/players?q=… (a search) or ?prefix=…&cursor=…&limit=… (a page) */
export const listPlayersQuerySchema = {
  type: 'object',
  properties: {
    q: {
      type: 'string',
      maxLength: 200,
      pattern: '^[^\\u0000-\\u001F\\u007F\\uD800-\\uDFFF]*$',
      description: 'Players whose profile id, searchable attribute or full name is this or starts with it, in any case; at most 50, exact matches first.',
    },
    prefix: { ...profileIdSchema, description: 'Only players whose profile_id starts with this (an exact id comes first).' },
    limit: { type: 'string', pattern: '^(100|[1-9][0-9]?)$', description: 'an integer from 1 to 100' },
    cursor: { type: 'string', minLength: 1, maxLength: 2048 },
  },
  additionalProperties: false,
} as const;

const timelineEventName = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  pattern: '^[^\\u0000-\\u001F\\u007F\\uD800-\\uDFFF]*$',
} as const;

/** GET /console/api/players/{profile_id}/timeline?name=…&from=…&to=…&cursor=…&limit=… */
export const playerTimelineQuerySchema = {
  type: 'object',
  properties: {
    name: { ...timelineEventName, description: 'Only events of this name (system urm_* events too).' },
    event: { ...timelineEventName, description: 'The older spelling of name.' },
    from: { type: 'string', format: 'date-time', maxLength: 64, description: 'Only events at or after this time.' },
    to: { type: 'string', format: 'date-time', maxLength: 64, description: 'Only events before this time.' },
    limit: { type: 'string', pattern: '^(100|[1-9][0-9]?)$', description: 'an integer from 1 to 100' },
    cursor: { type: 'string', minLength: 1, maxLength: 2048 },
  },
  additionalProperties: false,
} as const;

/** POST /console/api/players/{profile_id}/attributes */
export const changeAttributeSchema = {
  type: 'object',
  required: ['action', 'attribute'],
  properties: {
    action: { enum: ['set', 'unset'], description: 'set: give the attribute `value`; unset: make it null (as urm_unset).' },
    attribute: { ...nameSchema(), description: 'A custom attribute (system urm_* attributes are not changed here).' },
    value: valueSchema,
    action_id: {
      type: 'string',
      minLength: 1,
      maxLength: limits.insertIdLength - 'urm-bo-'.length,
      ...identifierText,
      description: 'Chosen by the console; re-sending the same action_id changes the player once.',
    },
  },
  allOf: [
    { if: { properties: { action: { const: 'set' } } }, then: { properties: { value: true }, required: ['value'] } },
    {
      if: { properties: { action: { const: 'unset' } } },
      then: { properties: { action: true, attribute: true, action_id: true }, additionalProperties: false },
    },
  ],
  additionalProperties: false,
} as const;

/** POST /console/api/players/{profile_id}/email */
export const playerEmailSchema = {
  type: 'object',
  // No recipients: the mail goes to the player's own address.
  required: ['channel_id', 'subject'],
  additionalProperties: false,
  properties: { ...emailMessageProperties, action_id: actionIdSchema, ...sendPurposeProperties },
} as const;

/** POST /console/api/players/{profile_id}/push */
export const playerPushSchema = {
  type: 'object',
  required: ['title', 'body'],
  additionalProperties: false,
  properties: { ...pushMessageProperties, action_id: actionIdSchema, ...sendPurposeProperties },
} as const;

// Checks of the query strings and bodies (functions/domain/validation.ts); precompiled in the bundle.
export const validListPlayersQuery = compileValidator(listPlayersQuerySchema, 'query string');
export const validPlayerTimelineQuery = compileValidator(playerTimelineQuerySchema, 'query string');
export const validChangeAttribute = compileValidator(changeAttributeSchema);
export const validPlayerEmail = compileValidator(playerEmailSchema);
export const validPlayerPush = compileValidator(playerPushSchema);
