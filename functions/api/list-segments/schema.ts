/** GET /api/segments (docs/api.md, "Segments"). */
import { appIdSchema } from '../../domain/attributes';
import { segmentStatuses } from '../../domain/segments/model';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const segmentsQuerySchema = {
  type: 'object',
  required: [],
  properties: { app_id: { ...appIdSchema, description: "Optional: the key's own application." } },
  additionalProperties: false,
} as const;

export type SegmentsQuery = FromRequestSchema<typeof segmentsQuerySchema>;

export const segmentListItemSchema = {
  type: 'object',
  required: ['segment_id', 'name', 'description', 'size', 'status', 'version', 'created_at', 'updated_at'],
  additionalProperties: false,
  properties: {
    segment_id: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    size: { type: 'integer', description: 'Members now.' },
    status: {
      type: 'string',
      enum: segmentStatuses.filter((status) => status !== 'archived'),
      description: 'backfilling: existing players are still being evaluated (the size grows); ready: kept in real time.',
    },
    version: { type: 'integer', description: 'Starts at 1; every change of the condition makes the next.' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
} as const;

export const segmentListSchema = {
  type: 'object',
  required: ['segments'],
  additionalProperties: false,
  properties: { segments: { type: 'array', description: 'Oldest first; archived segments are left out.', items: segmentListItemSchema } },
} as const;

/** Checks the query string (functions/domain/validation.ts); precompiled in the bundle. */
export const validSegmentsQuery = compileValidator(segmentsQuerySchema, 'query string');
