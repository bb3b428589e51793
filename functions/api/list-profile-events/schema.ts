/** GET /profiles/{profile_id}/events?app_id=…&limit=…&cursor=… */
import { appIdSchema, profileIdSchema } from '../../domain/attributes';
import type { SchemaType } from '../../domain/schema-type';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const eventsQuerySchema = {
  type: 'object',
  required: ['app_id'],
  properties: {
    app_id: appIdSchema,
    limit: { type: 'string', pattern: '^(100|[1-9][0-9]?)$', description: 'an integer from 1 to 100' },
    cursor: { type: 'string', minLength: 1, maxLength: 2048 },
  },
  additionalProperties: false,
} as const;

export type EventsQuery = FromRequestSchema<typeof eventsQuerySchema>;

export const timelineEventViewSchema = {
  type: 'object',
  required: ['event', 'urm_date_time', 'urm_insert_id', 'received_at', 'attributes'],
  additionalProperties: false,
  properties: {
    event: { type: 'string' },
    urm_date_time: { type: 'string', description: 'When the event happened, as the record said.' },
    urm_insert_id: { type: 'string' },
    received_at: { type: 'string', format: 'date-time', description: 'When the service stored the event.' },
    attributes: { type: 'object', description: "The event's custom attributes.", additionalProperties: true },
    merged_from: { type: 'string', description: 'The profile the event was recorded on, when urm_merge brought it here.' },
  },
} as const;

export const timelineViewSchema = {
  type: 'object',
  required: ['app_id', 'profile_id', 'events', 'next_cursor'],
  additionalProperties: false,
  properties: {
    app_id: appIdSchema,
    profile_id: profileIdSchema,
    events: { type: 'array', description: 'Newest first by urm_date_time.', items: timelineEventViewSchema },
    next_cursor: { type: ['string', 'null'], description: 'Pass as `cursor` for the next page; null on the last page.' },
  },
} as const;

export type TimelineEventView = SchemaType<typeof timelineEventViewSchema>;
export type TimelineView = SchemaType<typeof timelineViewSchema>;

/** Checks the query string (functions/domain/validation.ts); precompiled in the bundle. */
export const validEventsQuery = compileValidator(eventsQuerySchema, 'query string');
