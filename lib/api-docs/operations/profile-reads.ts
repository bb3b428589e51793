/** Reading a profile's state and its timeline back. */
import { profilePathSchema, profileViewSchema } from '../../../functions/api/get-profile/schema';
import { decodeCursor } from '../../../functions/api/list-profile-events/core';
import { timelineViewSchema } from '../../../functions/api/list-profile-events/schema';
import { partitionKey } from '../../../functions/domain/stream-record';
import { messageBodySchema } from '../../../functions/http/error-bodies';
import { placeholders as p } from '../placeholders';
import { appQuery, notFound, refusal, v, when } from './common';
import type { OperationDoc, ParameterDoc } from './doc-types';

const received = '2026-01-31T12:00:00.412Z';
const profileIdParameter: ParameterDoc = {
  name: 'profile_id',
  in: 'path',
  required: true,
  description: 'The profile, as the integrator names it (URL-encoded).',
  schema: profilePathSchema,
};
const otherTimelineCursor = Buffer.from(JSON.stringify(['app_0c1d2e3f405162738495#player-7', 'x', when])).toString('base64url');

export const profileReadDocs: Record<string, OperationDoc> = {
  GetProfile: {
    tag: 'Profiles',
    summary: "Read a profile's attributes",
    description: 'The profile as the stream has applied it so far (within seconds of the write receipt). 404 for a profile that never existed or was deleted.',
    scopes: ['server'],
    parameters: [profileIdParameter],
    query: { validate: v.profileQuery, ...appQuery },
    responses: {
      200: { description: 'The profile.', schema: profileViewSchema },
      404: { description: 'No such profile.', schema: messageBodySchema },
    },
    examples: {
      '200 stored profile': {
        summary: 'A profile with custom and push attributes',
        path: { profile_id: p.profileId },
        query: { app_id: p.appId },
        answer: {
          app_id: p.appId,
          profile_id: p.profileId,
          attributes: {
            first_name: 'Ada',
            country: 'GB',
            vip_level: 3,
            signup_channel: 'affiliate',
            deposits_total: 25.5,
            favourite_games: ['blackjack'],
            urm_web_push_notification_token: [p.pushToken],
            urm_receives_notifications: true,
          },
          updated_at: received,
        },
      },
      '404 unknown profile': {
        summary: 'A profile that does not exist',
        path: { profile_id: p.unknownProfileId },
        query: { app_id: p.appId },
        answer: notFound('profile not found'),
      },
      '400 missing app_id': {
        summary: 'No `app_id` in the query string',
        path: { profile_id: p.profileId },
        query: {},
        answer: refusal(v.profileQuery, {}),
      },
    },
  },
  ListProfileEvents: {
    tag: 'Profiles',
    summary: "Read a profile's timeline",
    description:
      "The profile's events, newest first by `urm_date_time`, a page at a time: pass `next_cursor` as `cursor` for the next " +
      'page. A cursor works only for the timeline that gave it.',
    scopes: ['server'],
    parameters: [profileIdParameter],
    query: {
      validate: v.eventsQuery,
      descriptions: { ...appQuery.descriptions, limit: 'Events per page, 1 to 100; default 50.', cursor: 'The `next_cursor` of the previous page.' },
    },
    responses: { 200: { description: 'A page of the timeline.', schema: timelineViewSchema } },
    examples: {
      '200 newest events first': {
        summary: 'The first page, two events at most',
        path: { profile_id: p.profileId },
        query: { app_id: p.appId, limit: '2' },
        answer: {
          app_id: p.appId,
          profile_id: p.profileId,
          events: [
            {
              event: 'deposit_made',
              urm_date_time: when,
              urm_insert_id: 'deposit-88231',
              received_at: received,
              attributes: { amount: 25.5, currency: 'EUR', method: 'card' },
            },
          ],
          next_cursor: null,
        },
      },
      '400 limit out of range': {
        summary: 'A `limit` over 100',
        path: { profile_id: p.profileId },
        query: { app_id: p.appId, limit: '500' },
        answer: refusal(v.eventsQuery, { app_id: p.appId, limit: '500' }),
      },
      '400 cursor of another timeline': {
        summary: 'A cursor that another timeline gave',
        path: { profile_id: p.profileId },
        query: { app_id: p.appId, cursor: otherTimelineCursor },
        answer: refusal(
          Object.assign(() => decodeCursor(otherTimelineCursor, partitionKey(p.appId, p.profileId)), { schema: {} }),
          otherTimelineCursor,
        ),
      },
    },
  },
};
