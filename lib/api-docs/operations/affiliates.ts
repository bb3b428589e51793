/** Affiliates: attribution of a profile, and registration. */
import { registrationSchema } from '../../../functions/register-affiliate/schema';
import { affiliateSetSchema, trackingParameters } from '../../../functions/set-affiliate/schema';
import { placeholders as p } from '../placeholders';
import { refusal, v } from './common';
import type { OperationDoc } from './doc-types';

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
