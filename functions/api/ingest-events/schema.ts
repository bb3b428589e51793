/** POST /events: an array of 1 to 500 event records (docs/api.md, "Ingestion"). */
import { commonRecordProperties, nameSchema, valueSchema } from '../../domain/attributes';
import { limits } from '../../domain/limits';
import { identifierText } from '../../domain/text';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const eventRecordFields = ['app_id', 'profile_id', 'event', 'urm_date_time', 'urm_insert_id', 'urm_ip'] as const;

export const eventRecordSchema = {
  type: 'object',
  required: ['app_id', 'profile_id', 'event', 'urm_date_time'],
  maxProperties: 1000,
  propertyNames: nameSchema(eventRecordFields),
  properties: {
    ...commonRecordProperties,
    event: {
      type: 'string',
      minLength: 1,
      maxLength: limits.eventNameLength,
      ...identifierText,
      description: 'the event name: any characters but control characters (U+0000–U+001F, U+007F) and unpaired surrogates; kept as sent',
    },
  },
  additionalProperties: valueSchema,
} as const;

export const eventsBodySchema = {
  type: 'array',
  minItems: 1,
  maxItems: limits.recordsPerRequest,
  items: eventRecordSchema,
} as const;

/** Custom attributes come as `unknown`: FromSchema types the names outside `properties` so. */
export type EventRecord = FromRequestSchema<typeof eventRecordSchema>;

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validEventsBody = compileValidator(eventsBodySchema);
