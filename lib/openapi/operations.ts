/**
 * What the document says of each operation of lib/operations.ts, beside what
 * that file says (method, path, id): the function's own request and response
 * schemas, the API-key scopes its handler allows, and examples.
 *
 * Examples: an operation's examples are keyed by name, and a name begins with
 * the status the example gets ("200 …", "400 …"). The parts of one example
 * (path and query values, headers, cookies, body) sit under that name in the
 * parameters' and the request body's `examples`, and what comes back under the
 * same name in the response of that status. A response example whose name no
 * request example has (a 500, a 415) only illustrates. Values standing for
 * what exists only in an installation are placeholders (./placeholders.ts).
 */
import { registrationSchema, validRegistration } from '../../functions/register-affiliate/schema';
import { signInAnswerSchema, signInBodySchema } from '../../functions/enterprise-sign-in/schema';
import { signUpAnswerSchema, signUpBodySchema } from '../../functions/enterprise-sign-up/schema';
import { profilePathSchema, profileQuerySchema, profileViewSchema } from '../../functions/get-profile/schema';
import { pushConfigQuerySchema, pushConfigSchema } from '../../functions/get-push-config/schema';
import { eventsBodySchema, eventRecordSchema } from '../../functions/ingest-events/schema';
import { profileRecordSchema, profilesBodySchema } from '../../functions/ingest-profiles/schema';
import { decodeCursor } from '../../functions/list-profile-events/core';
import { eventsQuerySchema, timelineEventViewSchema, timelineViewSchema } from '../../functions/list-profile-events/schema';
import { sendEmailResponseSchema, sendEmailSchema } from '../../functions/send-email/schema';
import { sendPushResponseSchema, sendPushSchema } from '../../functions/send-push/schema';
import { affiliateSetSchema, trackingParameters, validSetAffiliate } from '../../functions/set-affiliate/schema';
import type { Scope } from '../../functions/shared/domain/api-keys';
import { emailLimits } from '../../functions/shared/domain/email';
import { pushTokensSchema, valueSchema } from '../../functions/shared/domain/attributes';
import { PUSH_NOT_CONFIGURED } from '../../functions/shared/domain/push';
import { writeReceiptSchema } from '../../functions/shared/domain/ingest';
import { limits } from '../../functions/shared/domain/limits';
import { partitionKey } from '../../functions/shared/domain/stream-record';
import { compileValidator, type Validator } from '../../functions/shared/domain/validation';
import { corsAllowedHeaders, corsMaxAgeSeconds } from '../../functions/shared/http/cors';
import { errorListBodySchema, invalidRequestBodySchema, messageBodySchema } from '../../functions/shared/http/error-bodies';
import { toErrorResponse } from '../../functions/shared/http/errors';
import { htmlSecurityHeaders } from '../../functions/shared/http/html';
import { describeBytes } from '../../functions/shared/http/json-body';
import {
  linkRefusedPage,
  notSignedInPage,
  portalHomePage,
  signedInRedirectPage,
  signedOutPage,
} from '../../functions/shared/portal/pages';
import { SESSION_COOKIE } from '../../functions/shared/portal/session-cookie';
import { placeholders as p } from './placeholders';

export const tags = [
  { name: 'Ingestion', description: 'Profile records and events, written to the stream and applied within seconds.' },
  { name: 'Profiles', description: "Reading a profile's state and timeline back." },
  { name: 'Affiliates', description: 'Attributing players to affiliates, and registering affiliates.' },
  { name: 'Enterprise', description: "Enterprise users and their sign-in to the application's portal." },
  { name: 'Email', description: "Transactional email through the application's channels." },
  { name: 'Web push', description: 'Web push notifications and what the browser SDK needs.' },
] as const;

export type Tag = (typeof tags)[number]['name'];

export interface RequestExample {
  summary: string;
  path?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  body?: unknown;
  /** What comes back: a JSON value, or the page. */
  answer?: unknown;
}

export interface ParameterDoc {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  description: string;
  schema: object;
}

export interface ResponseDoc {
  description: string;
  /** The JSON body's schema; absent with `html` (a page) or for an empty body. */
  schema?: object;
  html?: true;
  headers?: Record<string, { description: string; schema: object }>;
  /** Examples of the answer that no request example leads to. */
  illustrations?: Record<string, { summary: string; value: unknown }>;
}

export interface OperationDoc {
  tag: Tag;
  summary: string;
  description: string;
  /** The scopes of API key the handler allows (its jsonApi/queryApi `scopes`); empty: no key. */
  scopes: readonly Scope[];
  /** A portal page (htmlApi, functions/shared/http/html.ts): HTML answers, an error page. */
  page?: true;
  parameters?: ParameterDoc[];
  /** The function's query-string validator: each property of its schema becomes a query parameter. */
  query?: { validate: Validator<unknown>; descriptions: Record<string, string> };
  /** The function's body validator; `also`: a rule it checks beside its schema, in JSON Schema. */
  body?: { validate: Validator<unknown>; description: string; also?: object };
  /** `errors`: error bodies are `{"errors"}` (register_affiliate). */
  errorStyle?: 'message' | 'errors';
  /** The operation's own answers; the shared ones (400, 403, 500, gateway answers) are added. */
  responses: Record<number, ResponseDoc>;
  examples: Record<string, RequestExample>;
}

/** Published under `#/components/schemas`: shared schemas, by identity. */
export const namedSchemas = new Map<object, string>([
  [valueSchema, 'AttributeValue'],
  [pushTokensSchema, 'PushTokens'],
  [profileRecordSchema, 'ProfileRecord'],
  [eventRecordSchema, 'EventRecord'],
  [writeReceiptSchema, 'WriteReceipt'],
  [profileViewSchema, 'Profile'],
  [timelineViewSchema, 'Timeline'],
  [timelineEventViewSchema, 'TimelineEvent'],
  [messageBodySchema, 'Message'],
  [invalidRequestBodySchema, 'InvalidRequest'],
  [errorListBodySchema, 'ErrorList'],
]);

/** The body the function answers when `validate` refuses `input`: examples of refusals are the function's own words. */
function refusal(validate: Validator<unknown>, input: unknown, style: 'message' | 'errors' = 'message'): unknown {
  try {
    validate(input);
  } catch (error) {
    return JSON.parse(toErrorResponse(error, { style }).body) as unknown;
  }
  throw new Error(`example meant to be refused passes: ${JSON.stringify(input)}`);
}

/** The validators the handlers use, or ones compiled from the same schemas. */
export const validators = {
  profiles: compileValidator(profilesBodySchema),
  events: compileValidator(eventsBodySchema),
  profileQuery: compileValidator(profileQuerySchema, 'query string'),
  eventsQuery: compileValidator(eventsQuerySchema, 'query string'),
  setAffiliate: validSetAffiliate,
  registerAffiliate: validRegistration,
  sendEmail: compileValidator(sendEmailSchema),
  signUp: compileValidator(signUpBodySchema),
  signIn: compileValidator(signInBodySchema),
  pushConfigQuery: compileValidator(pushConfigQuerySchema, 'query string'),
  sendPush: compileValidator(sendPushSchema),
} satisfies Record<string, Validator<unknown>>;
const v = validators;

const when = '2026-01-31T12:00:00Z';
const received = '2026-01-31T12:00:00.412Z';
const receipt = {
  EncryptionType: 'KMS',
  FailedRecordCount: 0,
  Records: [{ SequenceNumber: '49651739284712039485720394857203948572039485720394', ShardId: 'shardId-000000000000' }],
};
const notFound = (message: string) => ({ message });
const appQuery = { descriptions: { app_id: "The application: the key's own." } };
const profileIdParameter: ParameterDoc = {
  name: 'profile_id',
  in: 'path',
  required: true,
  description: 'The profile, as the integrator names it (URL-encoded).',
  schema: profilePathSchema,
};
const sessionCookieParameter: ParameterDoc = {
  name: SESSION_COOKIE,
  in: 'cookie',
  required: false,
  description: 'The portal session, set by /redirect.',
  schema: { type: 'string' },
};
const pageHeaders = Object.fromEntries(
  Object.entries(htmlSecurityHeaders).map(([name, value]) => [name, { description: 'Sent with every page.', schema: { const: value } }]),
);
const portalUser = {
  app_id: p.appId,
  user_id: p.userId,
  email: p.enterpriseEmail,
  first_name: 'Grace',
  last_name: 'Hopper',
  created_at: when,
};

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
const otherTimelineCursor = Buffer.from(JSON.stringify(['app_0c1d2e3f405162738495#player-7', 'x', when])).toString('base64url');
const invalidAffiliate = {
  app_id: p.appId,
  password: 'short',
  email: 'ada.lovelace',
  username: p.affiliateUsername,
  first_name: ' ',
  last_name: 'Lovelace',
  telegram: '@ada',
};
const invalidEmail = { app_id: p.appId, channel_id: p.channelId, profile_id: p.profileId, to_addresses: [], subject: '' };
const invalidSignUp = { app_id: p.appId, users: [{ email: 'grace.hopper', first_name: 'Grace', last_name: ' ' }] };
const invalidPush = { app_id: p.appId, profile_id: p.profileId, title: '', body: 'Your bonus is waiting', urgency: 'urgent' };

/** What a browser key's POST names its application with, for CORS (functions/shared/http/cors.ts). */
export const corsAppIdParameter: ParameterDoc = {
  name: 'app_id',
  in: 'query',
  required: false,
  description: 'Names the application for CORS; the browser SDK sends it.',
  schema: { type: 'string' },
};

/** Where the CORS headers are documented: the answers of an operation a browser key may call. */
export const corsHeaders = {
  'Access-Control-Allow-Origin': {
    description: "The request's Origin, when it is one of the application's site origins and the key is a browser key (or was refused).",
    schema: { type: 'string' },
  },
  Vary: { description: 'Origin', schema: { type: 'string' } },
};

export const operationDocs: Record<string, OperationDoc> = {
  IngestProfiles: {
    tag: 'Ingestion',
    summary: 'Write profile records',
    description:
      `A JSON array of 1 to ${limits.recordsPerRequest} profile records, at most 1 MiB each as written to the stream, ` +
      'written in order and applied within seconds (DECISIONS.md "Ingestion", "How a profile record is applied"). All or nothing: one invalid ' +
      'record and nothing is written. Beside the schema: an attribute may be named in one place of a record only, ' +
      '`urm_delete_profile` goes with the required fields and `urm_insert_id` only, and `urm_merge` must not name the ' +
      'profile itself (400). A browser key may write only the push SDK\'s records (push attributes, `urm_merge` of ' +
      '`urm-anon-` profiles); anything else is a 403.',
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
      `A JSON array of 1 to ${limits.recordsPerRequest} events, each going to its profile's timeline (DECISIONS.md "Ingestion"). All or nothing, ` +
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
  SetAffiliate: {
    tag: 'Affiliates',
    summary: 'Attribute a player to an affiliate',
    description:
      'Sets the tracking parameters on the profile where it has none yet (the first attribution wins, per parameter) and ' +
      'puts an `urm_affiliate_attributed` event on its timeline. At least one tracking parameter; values are kept as given.',
    scopes: ['server'],
    body: {
      validate: v.setAffiliate,
      description: 'The profile and at least one tracking parameter.',
      also: { anyOf: trackingParameters.map((name) => ({ required: [name] })) },
    },
    responses: { 200: { description: 'Attributed.', schema: affiliateSetSchema } },
    examples: {
      '200 first attribution': {
        summary: 'All three tracking parameters',
        body: { app_id: p.appId, profile_id: p.profileId, urm_aff_id: 'aff-2231', urm_aff_link_id: 'summer-banner', urm_aff: 'partner-network' },
        answer: { message: 'Affiliate set', message_id: '3b241101-e2bb-4255-8caf-4136c566a962' },
      },
      '400 no tracking parameter': {
        summary: 'Neither urm_aff_id, urm_aff_link_id nor urm_aff',
        body: { app_id: p.appId, profile_id: p.profileId },
        answer: refusal(v.setAffiliate, { app_id: p.appId, profile_id: p.profileId }),
      },
    },
  },
  RegisterAffiliate: {
    tag: 'Affiliates',
    summary: 'Register an affiliate',
    description:
      'Creates an affiliate of the application, who then signs in at `login_url`. Before the rules, every string but ' +
      '`app_id` and `password` is trimmed and an optional field that is null or empty is dropped; the schema shows what ' +
      'remains. Email and username are unique per application (a used one is `"email is invalid"`). Errors are ' +
      '`{"errors": [...]}`, one per field, except the 403.',
    scopes: ['server'],
    errorStyle: 'errors',
    body: { validate: v.registerAffiliate, description: 'The affiliate.' },
    responses: { 200: { description: 'Registered.', schema: registrationSchema } },
    examples: {
      '200 registered': {
        summary: 'Required fields and some contacts',
        body: {
          app_id: p.appId,
          password: 'correct horse battery staple',
          email: p.affiliateEmail,
          username: p.affiliateUsername,
          first_name: 'Ada',
          last_name: 'Lovelace',
          website_url: 'https://ada-plays.example',
          telegram: 'ada_plays',
          youtube: '@adaplays',
        },
        answer: { login_url: 'https://portal.casino.example/login', affiliate_id: 'aff_8f3a01c2d4e5b6a79081' },
      },
      '400 invalid fields': {
        summary: 'A short password, an invalid email, a blank name, a telegram name with @',
        body: invalidAffiliate,
        answer: refusal(v.registerAffiliate, invalidAffiliate, 'errors'),
      },
    },
  },
  SendEmail: {
    tag: 'Email',
    summary: 'Send a transactional email',
    description:
      "Sends one message through one of the application's channels and records an `urm_email_sent` event on the profile. " +
      `At least one of \`html_body\` and \`text_body\`, each at most ${describeBytes(emailLimits.bodyBytes)} as UTF-8; ` +
      '`reply_to_name` only with `reply_to`.',
    scopes: ['comms'],
    body: { validate: v.sendEmail, description: 'The message.' },
    responses: {
      200: { description: 'Sent.', schema: sendEmailResponseSchema },
      404: { description: 'No enabled channel of that id.', schema: messageBodySchema },
    },
    examples: {
      '200 sent': {
        summary: 'An HTML and text message to one recipient',
        body: {
          app_id: p.appId,
          channel_id: p.channelId,
          profile_id: p.profileId,
          to_addresses: [{ email: 'ada.lovelace@example.com', name: 'Ada Lovelace' }],
          subject: 'Your deposit is confirmed',
          html_body: '<p>Thanks, Ada: your deposit of €25.50 is on your account.</p>',
          text_body: 'Thanks, Ada: your deposit of €25.50 is on your account.',
        },
        answer: { message_id: '010001907a9c1f2e-6b1d3c4e-5f60-4a7b-8c9d-0e1f2a3b4c5d-000000' },
      },
      '404 unknown channel': {
        summary: 'A channel the application does not have',
        body: {
          app_id: p.appId,
          channel_id: 'newsletter-2019',
          profile_id: p.profileId,
          to_addresses: [{ email: 'ada.lovelace@example.com', name: 'Ada Lovelace' }],
          subject: 'Your deposit is confirmed',
          text_body: 'Thanks, Ada: your deposit of €25.50 is on your account.',
        },
        answer: notFound('channel not found'),
      },
      '400 no recipient and no subject': {
        summary: 'An empty recipient list and subject',
        body: invalidEmail,
        answer: refusal(v.sendEmail, invalidEmail),
      },
    },
  },
  EnterpriseSignUp: {
    tag: 'Enterprise',
    summary: 'Sign up enterprise users',
    description:
      'Creates 1 to 100 users of the application, idempotent by email (compared without case): an email already signed ' +
      'up answers that user, unchanged, with `created: false`.',
    scopes: ['server'],
    body: { validate: v.signUp, description: 'The users.' },
    responses: { 200: { description: 'The users, in input order.', schema: signUpAnswerSchema } },
    examples: {
      '200 signed up': {
        summary: 'One new user',
        body: { app_id: p.appId, users: [{ email: p.enterpriseEmail, first_name: 'Grace', last_name: 'Hopper' }] },
        answer: { users: [{ user_id: p.userId, email: p.enterpriseEmail, first_name: 'Grace', last_name: 'Hopper', created: true }] },
      },
      '400 invalid user': {
        summary: 'An invalid email and a blank name',
        body: invalidSignUp,
        answer: refusal(v.signUp, invalidSignUp),
      },
    },
  },
  EnterpriseSignIn: {
    tag: 'Enterprise',
    summary: 'Issue a sign-in link',
    description:
      "A one-time token, valid 5 minutes, and the portal address that uses it: send the user's browser to `redirect_url`. " +
      'Answered with `Cache-Control: no-store`.',
    scopes: ['server'],
    body: { validate: v.signIn, description: 'The user to sign in.' },
    responses: {
      200: {
        description: 'The sign-in link.',
        schema: signInAnswerSchema,
        headers: { 'Cache-Control': { description: 'The token is shown once.', schema: { const: 'no-store' } } },
      },
      404: { description: 'No such user in the application.', schema: messageBodySchema },
      409: {
        description: 'The application has no portal origin configured: no token is issued.',
        schema: messageBodySchema,
        illustrations: {
          '409 no portal origin': {
            summary: 'An application without a portal origin',
            value: { message: 'the application has no portal origin configured; ask your account manager to set it' },
          },
        },
      },
    },
    examples: {
      '200 token issued': {
        summary: 'A signed-up user',
        body: { app_id: p.appId, user_id: p.userId },
        answer: {
          token: p.signInToken,
          redirect_url: `https://portal.casino.example/redirect?token=${p.signInToken}`,
          expires_at: '2026-01-31T12:05:00.000Z',
        },
      },
      '404 unknown user': {
        summary: 'A user id the application does not have',
        body: { app_id: p.appId, user_id: 'usr_000000000000000000000000' },
        answer: notFound('user not found'),
      },
      '400 empty user id': {
        summary: 'An empty `user_id`',
        body: { app_id: p.appId, user_id: '' },
        answer: refusal(v.signIn, { app_id: p.appId, user_id: '' }),
      },
    },
  },
  EnterpriseRedirect: {
    tag: 'Enterprise',
    summary: 'Open a sign-in link',
    description:
      'The page `redirect_url` leads to. A good token is used up, starts an 8-hour portal session (cookie) and redirects to ' +
      'the portal; a used, expired, unknown or missing one answers 401 with a page saying which.',
    scopes: [],
    page: true,
    parameters: [{ name: 'token', in: 'query', required: true, description: 'The sign-in token.', schema: { type: 'string' } }],
    responses: {
      303: {
        description: 'Signed in: on to the portal.',
        html: true,
        headers: {
          ...pageHeaders,
          Location: { description: 'The portal home, relative: `portal`.', schema: { const: 'portal' } },
          'Set-Cookie': { description: `The session: \`${SESSION_COOKIE}=…; Path=/; Max-Age=28800; HttpOnly; SameSite=Lax; Secure\`.`, schema: { type: 'string' } },
        },
      },
      401: { description: 'The link was refused.', html: true, headers: pageHeaders },
    },
    examples: {
      '303 signed in': { summary: 'A fresh token', query: { token: p.signInToken }, answer: signedInRedirectPage() },
      '401 link refused': {
        summary: 'A token that was never issued',
        query: { token: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
        answer: linkRefusedPage('unknown'),
      },
    },
  },
  PortalHome: {
    tag: 'Enterprise',
    summary: 'The portal home',
    description: 'Who is signed in, with a sign-out button; 401 without a live session.',
    scopes: [],
    page: true,
    parameters: [sessionCookieParameter],
    responses: {
      200: { description: 'The portal home.', html: true, headers: pageHeaders },
      401: { description: 'Not signed in.', html: true, headers: pageHeaders },
    },
    examples: {
      '200 signed in': {
        summary: 'A live session',
        cookies: { [SESSION_COOKIE]: p.sessionId },
        answer: portalHomePage({ appName: 'Casino Example', user: portalUser }),
      },
      '401 not signed in': { summary: 'A session that has ended', cookies: { [SESSION_COOKIE]: 'ended-session' }, answer: notSignedInPage() },
    },
  },
  PortalSignOut: {
    tag: 'Enterprise',
    summary: 'Sign out of the portal',
    description: "Ends the session and clears its cookie. A cross-site form cannot sign anyone out: the SameSite=Lax cookie is not sent with it.",
    scopes: [],
    page: true,
    parameters: [sessionCookieParameter],
    responses: {
      200: {
        description: 'Signed out.',
        html: true,
        headers: { ...pageHeaders, 'Set-Cookie': { description: 'Clears the session cookie (`Max-Age=0`).', schema: { type: 'string' } } },
      },
    },
    examples: {
      '200 signed out': { summary: 'A live session', cookies: { [SESSION_COOKIE]: p.sessionId }, answer: signedOutPage() },
    },
  },
  GetPushConfig: {
    tag: 'Web push',
    summary: 'The VAPID public key',
    description: "What the browser SDK needs to subscribe: the application's VAPID public key.",
    scopes: ['browser'],
    query: { validate: v.pushConfigQuery, ...appQuery },
    responses: {
      200: { description: 'The key.', schema: pushConfigSchema },
      404: {
        description: 'The application has no VAPID keys.',
        schema: messageBodySchema,
        illustrations: { '404 push not configured': { summary: 'An application without VAPID keys', value: notFound(PUSH_NOT_CONFIGURED) } },
      },
    },
    examples: {
      '200 VAPID key': {
        summary: "The application's key",
        query: { app_id: p.appId },
        answer: { vapid_public_key: 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U' },
      },
      '400 empty app_id': {
        summary: 'An empty `app_id`',
        query: { app_id: '' },
        answer: refusal(v.pushConfigQuery, { app_id: '' }),
      },
    },
  },
  SendPush: {
    tag: 'Web push',
    summary: 'Send a web push notification',
    description:
      "Sends the notification to every push subscription of the profile (none when it has `urm_receives_notifications: " +
      'false`), removes subscriptions the push service no longer knows, and records an `urm_push_sent` event.',
    scopes: ['comms'],
    body: { validate: v.sendPush, description: 'The notification.' },
    responses: {
      200: { description: 'What became of each subscription.', schema: sendPushResponseSchema },
      404: { description: 'No such profile, or the application has no VAPID keys.', schema: messageBodySchema },
    },
    examples: {
      '200 sent': {
        summary: 'A notification with a link',
        body: {
          app_id: p.appId,
          profile_id: p.profileId,
          title: 'Free spins',
          body: '10 free spins are waiting',
          url: 'https://www.casino.example/spins',
          ttl: 3600,
          urgency: 'high',
        },
        answer: { notification_id: '9b2f6c1e-4d3a-4f5b-8e7c-1a2b3c4d5e6f', sent: 1, failed: 0, removed: 0 },
      },
      '404 unknown profile': {
        summary: 'A profile that does not exist',
        body: { app_id: p.appId, profile_id: p.unknownProfileId, title: 'Free spins', body: '10 free spins are waiting' },
        answer: notFound('profile not found'),
      },
      '400 invalid notification': {
        summary: 'An empty title and an unknown urgency',
        body: invalidPush,
        answer: refusal(v.sendPush, invalidPush),
      },
    },
  },
};

/** The preflight of an operation a browser key may call (functions/shared/http/cors.ts). */
export function preflightDoc(method: string): OperationDoc {
  const preflight = (origin: string) => ({
    query: { app_id: p.appId },
    headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'content-type, x-api-key' },
  });
  return {
    tag: 'Web push',
    summary: 'CORS preflight',
    description:
      "Answered for the application's site origins only; the application is named by `app_id` in the query string, as a " +
      'preflight carries no key.',
    scopes: [],
    parameters: [
      { name: 'app_id', in: 'query', required: true, description: 'The application whose site origins apply.', schema: { type: 'string' } },
      { name: 'Origin', in: 'header', required: true, description: 'The page asking.', schema: { type: 'string' } },
      { name: 'Access-Control-Request-Method', in: 'header', required: false, description: 'The method to come.', schema: { type: 'string' } },
      { name: 'Access-Control-Request-Headers', in: 'header', required: false, description: 'The headers to come.', schema: { type: 'string' } },
    ],
    responses: {
      204: {
        description: 'The origin may call.',
        headers: {
          'Access-Control-Allow-Origin': { description: 'The origin.', schema: { type: 'string' } },
          'Access-Control-Allow-Methods': { description: "The operation's method.", schema: { const: method } },
          'Access-Control-Allow-Headers': { description: 'What the SDK sends.', schema: { const: corsAllowedHeaders } },
          'Access-Control-Max-Age': { description: 'Seconds the browser may keep the answer.', schema: { const: String(corsMaxAgeSeconds) } },
          Vary: { description: 'Origin', schema: { const: 'Origin' } },
        },
      },
      403: { description: 'Not a site origin of the application: no CORS headers.', schema: messageBodySchema },
    },
    examples: {
      '204 site origin': { summary: "An origin of the application's site", ...preflight(p.siteOrigin) },
      '403 other origin': { summary: 'Any other origin', ...preflight('https://evil.example'), answer: { message: 'Forbidden' } },
    },
  };
}
