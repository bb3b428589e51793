/** Segments: the application's segments with their sizes, and a segment's members, for the integrator's server. */
import { segmentMemberPageSchema, validSegmentMembersQuery } from '../../../functions/api/list-segment-members/schema';
import { segmentListSchema, validSegmentsQuery } from '../../../functions/api/list-segments/schema';
import { encodeCursor } from '../../../functions/back-office/cursors';
import { messageBodySchema } from '../../../functions/http/error-bodies';
import { placeholders as p } from '../placeholders';
import { notFound, refusal } from './common';
import type { OperationDoc, ParameterDoc } from './doc-types';

const segmentIdParameter: ParameterDoc = {
  name: 'segment_id',
  in: 'path',
  required: true,
  description: 'The segment, as `GET /api/segments` lists it.',
  schema: { type: 'string', minLength: 1, maxLength: 64 },
};

export const segmentDocs: Record<string, OperationDoc> = {
  ListSegments: {
    tag: 'Segments',
    summary: "List the application's segments",
    description:
      "The key's application's segments, oldest first, each with its size now and its status: `backfilling` while the " +
      'existing players are still evaluated (a new segment, or a new version of its condition: the size grows until it ' +
      'is `ready`), then `ready`, kept in real time. Archived segments are left out. Segments are defined in the console ' +
      'or with `npm run admin -- segments`.',
    scopes: ['server'],
    query: { validate: validSegmentsQuery, descriptions: { app_id: "Optional: the key's own application." } },
    responses: { 200: { description: 'The segments.', schema: segmentListSchema } },
    examples: {
      '200 segments': {
        summary: "The application's segments",
        query: { app_id: p.appId },
        answer: {
          segments: [
            {
              segment_id: p.segmentId,
              name: 'Active depositors',
              description: 'Two deposits or more in the last 30 days',
              size: 1284,
              status: 'ready',
              version: 2,
              created_at: '2026-01-30T09:15:00.000Z',
              updated_at: '2026-01-31T08:00:00.000Z',
            },
          ],
        },
      },
    },
  },

  ListSegmentMembers: {
    tag: 'Segments',
    summary: "A segment's members",
    description:
      'The members of a segment now, by `profile_id`, a page at a time: pass `next_cursor` as `cursor` for the next page ' +
      '(a cursor of another segment is a 400). Each with when it entered. An unknown or archived segment is a 404. ' +
      "Read a member's attributes with `GET /profiles/{profile_id}`.",
    scopes: ['server'],
    parameters: [segmentIdParameter],
    query: {
      validate: validSegmentMembersQuery,
      descriptions: {
        app_id: "Optional: the key's own application.",
        limit: 'Members per page, 1 to 1000; default 100.',
        cursor: 'The `next_cursor` of the previous page.',
      },
    },
    responses: {
      200: { description: 'A page of members.', schema: segmentMemberPageSchema },
      404: { description: 'No such segment in the application, or an archived one.', schema: messageBodySchema },
    },
    examples: {
      '200 first page': {
        summary: 'Two members per page',
        path: { segment_id: p.segmentId },
        query: { app_id: p.appId, limit: '2' },
        answer: {
          segment_id: p.segmentId,
          members: [
            { profile_id: 'player-1842', entered_at: '2026-01-31T10:02:11.000Z' },
            { profile_id: 'player-1907', entered_at: '2026-01-31T11:40:09.000Z' },
          ],
          next_cursor: encodeCursor([p.appId, p.segmentId], Buffer.from('player-1907').toString('base64url')),
        },
      },
      '404 unknown segment': {
        summary: 'A segment id the application does not have',
        path: { segment_id: p.unknownSegmentId },
        query: { app_id: p.appId },
        answer: notFound('no segment with this id'),
      },
      '400 limit out of range': {
        summary: 'A `limit` over 1000',
        path: { segment_id: p.segmentId },
        query: { app_id: p.appId, limit: '5000' },
        answer: refusal(validSegmentMembersQuery, { app_id: p.appId, limit: '5000' }),
      },
    },
  },
};
