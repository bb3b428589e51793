/** Ingestion: profile records and events onto the stream. */
import { writeReceiptSchema } from '../../../functions/domain/ingest';
import { limits } from '../../../functions/domain/limits';
import { placeholders as p } from '../placeholders';
import { receipt, refusal, v, when } from './common';
import type { OperationDoc } from './doc-types';

const profileExample = {
  app_id: p.appId,
  profile_id: p.profileId,
  urm_date_time: when,
  first_name: 'Ada',
  country: 'GB',
  vip_level: 3,
  urm_set_if_null: { signup_channel: 'affiliate' },
  urm_add: { deposits_total: 25.5 },
  urm_unique_append: { favourite_games: ['blackjack'], urm_web_push_notification_token: [p.pushToken] },
};
const invalidProfile = { app_id: p.appId, profile_id: p.profileId, urm_date_time: '31/01/2026 12:00', urm_vip: true };
const eventExample = {
  app_id: p.appId,
  profile_id: p.profileId,
  event: 'deposit_made',
  urm_date_time: when,
  urm_insert_id: 'deposit-88231',
  amount: 25.5,
  currency: 'EUR',
  method: 'card',
};
const { event: _event, ...namelessEvent } = eventExample;

export const ingestionDocs: Record<string, OperationDoc> = {
  IngestProfiles: {
    tag: 'Ingestion',
    summary: 'Write profile records',
    description:
      `A JSON array of 1 to ${limits.recordsPerRequest} profile records, at most 1 MiB each as written to the stream, ` +
      'written in order and applied within seconds (docs/api.md, "Ingestion" and "Applying profile records"). All or nothing: one invalid ' +
      'record and nothing is written. Beside the schema: an attribute may be named in one place of a record only, ' +
      '`urm_delete_profile` goes with the required fields and `urm_insert_id` only, and `urm_merge` must not name the ' +
      "profile itself (400). A browser key may write only the push SDK's records (push attributes of its own " +
      'subscription, `urm_merge` of `urm-anon-` profiles), a known profile only with its `urm_profile_id_hash`, and ' +
      'only with an `Origin`; anything else is a 403.',
    scopes: ['server', 'browser'],
    body: { validate: v.profiles, description: `1 to ${limits.recordsPerRequest} profile records.` },
    responses: { 200: { description: 'The write receipt: one entry per record, in input order.', schema: writeReceiptSchema } },
    examples: {
      '200 attributes and directives': { summary: 'Attributes and directives of one profile', body: [profileExample], answer: receipt },
      '200 visitor merged on sign-in': {
        summary: "A visitor's anonymous profile merged into the signed-in profile",
        body: [{ app_id: p.appId, profile_id: p.profileId, urm_date_time: when, urm_merge: [p.visitorProfileId] }],
        answer: receipt,
      },
      '400 invalid record': {
        summary: 'A date-time without a time zone and a reserved name',
        body: [invalidProfile],
        answer: refusal(v.profiles, [invalidProfile]),
      },
    },
  },
  IngestEvents: {
    tag: 'Ingestion',
    summary: 'Write events',
    description:
      `A JSON array of 1 to ${limits.recordsPerRequest} events, each going to its profile's timeline (docs/api.md, "Ingestion"). All or nothing, ` +
      'and the same limits as profile records. The same `urm_insert_id` for the same profile is stored once. A browser ' +
      'key may write only the notification lifecycle events (`urm_push_received`, `urm_push_clicked`, `urm_push_dismissed`).',
    scopes: ['server', 'browser'],
    body: { validate: v.events, description: `1 to ${limits.recordsPerRequest} events.` },
    responses: { 200: { description: 'The write receipt: one entry per event, in input order.', schema: writeReceiptSchema } },
    examples: {
      '200 deposit event': { summary: 'An event with custom attributes', body: [eventExample], answer: receipt },
      '400 event without a name': {
        summary: 'An event without `event`',
        body: [namelessEvent],
        answer: refusal(v.events, [namelessEvent]),
      },
    },
  },
};
