/** The query strings and bodies of the console's segments (docs/api.md, "Segments"). */
import { segmentLimits } from '../../back-office/segments';
import { identifierText } from '../../domain/text';
import { compileValidator } from '../../domain/validation';

const segmentName = { type: 'string', minLength: 1, maxLength: segmentLimits.nameLength, ...identifierText } as const;
const description = { type: 'string', maxLength: segmentLimits.descriptionLength } as const;
/** The condition's own schema is checked by the use case (functions/domain/segments/condition.ts), whose messages name the node. */
const condition = { type: 'object', description: 'The condition (docs/api.md, "Segments").' } as const;

/** GET /console/api/segments?archived=true */
export const listSegmentsQuerySchema = {
  type: 'object',
  properties: { archived: { enum: ['true', 'false'], description: 'true: archived segments too.' } },
  additionalProperties: false,
} as const;

/** POST /console/api/segments */
export const createSegmentSchema = {
  type: 'object',
  required: ['name', 'condition'],
  properties: {
    segment_id: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$', description: 'Made from the name when left out.' },
    name: segmentName,
    description,
    condition,
  },
  additionalProperties: false,
} as const;

/** POST /console/api/segments/{segment_id}: what is given changes. */
export const editSegmentSchema = {
  type: 'object',
  minProperties: 1,
  properties: { name: segmentName, description, condition },
  additionalProperties: false,
} as const;

/** GET /console/api/segments/{segment_id}/members?limit=…&cursor=… */
export const segmentMembersQuerySchema = {
  type: 'object',
  properties: {
    limit: { type: 'string', pattern: '^(100|[1-9][0-9]?)$', description: 'an integer from 1 to 100' },
    cursor: { type: 'string', minLength: 1, maxLength: 1024, description: 'the next_cursor of the previous page' },
  },
  additionalProperties: false,
} as const;

/** GET /console/api/segments/{segment_id}/members.csv?cursor=… */
export const segmentCsvQuerySchema = {
  type: 'object',
  properties: { cursor: { type: 'string', minLength: 1, maxLength: 1024, description: "the previous file's next cursor (its Link header)" } },
  additionalProperties: false,
} as const;

// Checks of the query strings and bodies (functions/domain/validation.ts); precompiled in the bundle.
export const validListSegmentsQuery = compileValidator(listSegmentsQuerySchema, 'query string');
export const validCreateSegment = compileValidator(createSegmentSchema);
export const validEditSegment = compileValidator(editSegmentSchema);
export const validSegmentMembersQuery = compileValidator(segmentMembersQuerySchema, 'query string');
export const validSegmentCsvQuery = compileValidator(segmentCsvQuerySchema, 'query string');
