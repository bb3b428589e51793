/** GET /api/segments/{segment_id}/members?limit=…&cursor=… (docs/api.md, "Segments"). */
import { appIdSchema } from '../../domain/attributes';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const segmentMembersQuerySchema = {
  type: 'object',
  required: [],
  properties: {
    app_id: { ...appIdSchema, description: "Optional: the key's own application." },
    limit: { type: 'string', pattern: '^(1000|[1-9][0-9]{0,2})$', description: 'an integer from 1 to 1000 (default 100)' },
    cursor: { type: 'string', minLength: 1, maxLength: 1024 },
  },
  additionalProperties: false,
} as const;

export type SegmentMembersQuery = FromRequestSchema<typeof segmentMembersQuerySchema>;

export const segmentMemberPageSchema = {
  type: 'object',
  required: ['segment_id', 'members', 'next_cursor'],
  additionalProperties: false,
  properties: {
    segment_id: { type: 'string' },
    members: {
      type: 'array',
      description: 'By profile_id.',
      items: {
        type: 'object',
        required: ['profile_id', 'entered_at'],
        additionalProperties: false,
        properties: {
          profile_id: { type: 'string' },
          entered_at: { type: 'string', format: 'date-time', description: 'When the player entered the segment.' },
        },
      },
    },
    next_cursor: { type: ['string', 'null'], description: 'Pass as `cursor` for the next page; null on the last page.' },
  },
} as const;

/** Checks the query string (functions/domain/validation.ts); precompiled in the bundle. */
export const validSegmentMembersQuery = compileValidator(segmentMembersQuerySchema, 'query string');
