/** GET /profiles/{profile_id}/events?app_id=…&limit=…&cursor=… */
import { appIdSchema } from '../shared/domain/attributes';

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

export interface EventsQuery {
  app_id: string;
  limit?: string;
  cursor?: string;
}

export interface TimelineEventView {
  event: string;
  urm_date_time: string;
  urm_insert_id: string;
  received_at: string;
  attributes: Record<string, unknown>;
  /** The profile the event was recorded on, when urm_merge brought it here. */
  merged_from?: string;
}

export interface TimelineView {
  app_id: string;
  profile_id: string;
  events: TimelineEventView[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}
