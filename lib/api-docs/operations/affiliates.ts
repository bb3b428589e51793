/** Affiliates: attribution of a profile, registration, the operator's listing and reports. */
import { checkReportRange } from '../../../functions/back-office/affiliate-report';
import { encodeAffiliateCursor } from '../../../functions/back-office/affiliates';
import type { FtdRow, FunnelDayRow } from '../../../functions/domain/affiliate-program';
import { affiliateReportOf, type ReportInput } from '../../../functions/domain/commission';
import { messageBodySchema } from '../../../functions/http/error-bodies';
import { affiliatePathSchema, affiliateReportSchema } from '../../../functions/api/get-affiliate-report/schema';
import { affiliatePageSchema } from '../../../functions/api/list-affiliates/schema';
import { registrationSchema } from '../../../functions/back-office/affiliate-registration-schema';
import { affiliateSetSchema, trackingParameters } from '../../../functions/api/set-affiliate/schema';
import { placeholders as p } from '../placeholders';
import { notFound, refusal, v } from './common';
import type { OperationDoc, ParameterDoc } from './doc-types';

const invalidAffiliate = {
  app_id: p.appId,
  password: 'short',
  email: 'ada.lovelace',
  username: p.affiliateUsername,
  first_name: ' ',
  last_name: 'Lovelace',
  telegram: '@ada',
};

export const affiliateDocs: Record<string, OperationDoc> = {
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
          skype: 'ada.lovelace',
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
};

const affiliateIdParameter: ParameterDoc = {
  name: 'affiliate_id',
  in: 'path',
  required: true,
  description: 'The affiliate, as register_affiliate answered it.',
  schema: affiliatePathSchema,
};

const exampleLink = 'lnk_7a0e5c1b9d3f';
const exampleDay: FunnelDayRow = {
  app_id: p.appId,
  affiliate_id: p.affiliateId,
  link_id: exampleLink,
  day: '2026-01-31',
  clicks: 3,
  registrations: 1,
  ftds: 1,
  deposit_count: 1,
  deposits: '25.00',
  withdrawals: '0',
  bets: '40.00',
  wins: '12.50',
  bonuses: '0',
};
const exampleFtd: FtdRow = {
  app_id: p.appId,
  affiliate_id: p.affiliateId,
  profile_id: p.profileId,
  link_id: exampleLink,
  sub_id: 'spring',
  day: '2026-01-31',
  amount: '25.00',
  insert_id: 'deposit-88231',
  urm_date_time: '2026-01-31T12:00:00Z',
};
const exampleInput: ReportInput = {
  affiliateId: p.affiliateId,
  currency: 'EUR',
  from: '2026-01-30',
  to: '2026-01-31',
  plan: {
    app_id: p.appId,
    plan_id: 'plan_3c9d1e7f20a4b658',
    name: 'Hybrid',
    cpa: { amount: '50.00', min_deposit: '20.00' },
    revshare: { percent: '25', carry_over: true },
    created_at: '2026-01-01T00:00:00Z',
  },
  days: [exampleDay],
  ftds: [exampleFtd],
  carriedIn: '0.00',
  linkNames: new Map([[exampleLink, 'Summer banner']]),
};

/** The report example is the computation's own answer, for a hybrid plan: CPA 50.00 (first deposit ≥ 20.00) + RevShare 25 %. */
const exampleReport = affiliateReportOf(exampleInput);

/** The same two days by sub-id: the link's 3 clicks came with sub-ids `spring` (2, and the player) and `autumn` (1). */
const exampleSubIdReport = (() => {
  const {
    days: _days,
    links: _links,
    ...report
  } = affiliateReportOf({
    ...exampleInput,
    days: [{ ...exampleDay, sub_ids: ['spring', 'autumn'] }],
    subIdDays: [
      { ...exampleDay, sub_id: 'spring', clicks: 2 },
      { ...exampleDay, sub_id: 'autumn', clicks: 1, registrations: 0, ftds: 0, deposit_count: 0, deposits: '0', bets: '0', wins: '0' },
    ],
  });
  return report;
})();

const reversedRange = { app_id: p.appId, from: '2026-02-01', to: '2026-01-01' };

affiliateDocs.ListAffiliates = {
  tag: 'Affiliates',
  summary: "List the application's affiliates",
  description:
    "The affiliates of the key's application, by `affiliate_id`, a page at a time: pass `next_cursor` as `cursor` for the next " +
    'page. Each with its status (`pending`, `approved`, `suspended`) and commission plan; never a password.',
  scopes: ['server'],
  query: {
    validate: v.affiliatesQuery,
    descriptions: {
      app_id: "Optional: the key's own application.",
      limit: 'Affiliates per page, 1 to 100; default 50.',
      cursor: 'The `next_cursor` of the previous page.',
    },
  },
  responses: { 200: { description: 'A page of affiliates.', schema: affiliatePageSchema } },
  examples: {
    '200 first page': {
      summary: 'One affiliate per page',
      query: { app_id: p.appId, limit: '1' },
      answer: {
        affiliates: [
          {
            affiliate_id: p.affiliateId,
            username: p.affiliateUsername,
            email: p.affiliateEmail,
            first_name: 'Ada',
            last_name: 'Lovelace',
            status: 'approved',
            plan_id: 'plan_3c9d1e7f20a4b658',
            created_at: '2026-01-30T09:15:00.000Z',
          },
        ],
        next_cursor: encodeAffiliateCursor(p.appId, p.affiliateId),
      },
    },
    '400 limit out of range': {
      summary: 'A `limit` over 100',
      query: { app_id: p.appId, limit: '500' },
      answer: refusal(v.affiliatesQuery, { app_id: p.appId, limit: '500' }),
    },
  },
};

affiliateDocs.GetAffiliateReport = {
  tag: 'Affiliates',
  summary: "An affiliate's report and commission",
  description:
    'Per day of the range (at most 366 days, both ends included, UTC days), per tracking link, and in total: clicks, ' +
    "registrations, first deposits (FTDs), deposits, NGR and commission under the affiliate's current plan, money as " +
    "decimal strings in the application's main currency. RevShare is settled per calendar month (`months`): a month pays " +
    'max(0, its days + what earlier months carried in); a month the range cuts is settled on its days within the range. ' +
    '`group_by` chooses the rows: `day` (the default: `days` and `links`), `link` (`links`) or `sub_id` (`sub_ids`: by link and ' +
    'sub-id, at most 100 sub-ids per link and UTC day with a row of their own, the rest under `(other)`). Every row and the totals carry ' +
    '`registration_rate` (registrations per click) and `ftd_rate` (FTDs per registration), 4 decimal places, null without a denominator. ' +
    'An unknown affiliate, or one of another application, is a 404.',
  scopes: ['server'],
  parameters: [affiliateIdParameter],
  query: {
    validate: v.reportQuery,
    descriptions: {
      app_id: "Optional: the key's own application.",
      from: 'First day, YYYY-MM-DD (UTC).',
      to: 'Last day, YYYY-MM-DD (UTC), not before `from`, at most 365 days after it.',
      group_by: 'The rows: `day` (default), `link` or `sub_id`.',
    },
  },
  responses: {
    200: { description: 'The report.', schema: affiliateReportSchema },
    404: { description: 'No such affiliate in the application.', schema: messageBodySchema },
  },
  examples: {
    '200 report': {
      summary: 'Two days; one player deposited 25.00 and lost 27.50',
      path: { affiliate_id: p.affiliateId },
      query: { app_id: p.appId, from: '2026-01-30', to: '2026-01-31' },
      answer: exampleReport,
    },
    '200 by sub-id': {
      summary: 'The same two days by link and sub-id',
      path: { affiliate_id: p.affiliateId },
      query: { app_id: p.appId, from: '2026-01-30', to: '2026-01-31', group_by: 'sub_id' },
      answer: exampleSubIdReport,
    },
    '400 unknown group_by': {
      summary: 'A `group_by` the report does not have',
      path: { affiliate_id: p.affiliateId },
      query: { app_id: p.appId, from: '2026-01-01', to: '2026-01-31', group_by: 'week' },
      answer: refusal(v.reportQuery, { app_id: p.appId, from: '2026-01-01', to: '2026-01-31', group_by: 'week' }),
    },
    '404 unknown affiliate': {
      summary: 'An affiliate id the application does not have',
      path: { affiliate_id: p.unknownAffiliateId },
      query: { app_id: p.appId, from: '2026-01-01', to: '2026-01-31' },
      answer: notFound('Not Found'),
    },
    '400 missing to': {
      summary: 'No `to` in the query string',
      path: { affiliate_id: p.affiliateId },
      query: { app_id: p.appId, from: '2026-01-01' },
      answer: refusal(v.reportQuery, { app_id: p.appId, from: '2026-01-01' }),
    },
    '400 to before from': {
      summary: 'A range that ends before it starts',
      path: { affiliate_id: p.affiliateId },
      query: reversedRange,
      answer: refusal(
        Object.assign(() => checkReportRange(reversedRange.from, reversedRange.to), { schema: {} }),
        reversedRange,
      ),
    },
  },
};
