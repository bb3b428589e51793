/** What the operations' docs share: the validators the examples are checked with, example values, common parameters. */
import { validSignInBody } from '../../../functions/api/enterprise-sign-in/schema';
import { validSignUpBody } from '../../../functions/api/enterprise-sign-up/schema';
import { validProfileQuery } from '../../../functions/api/get-profile/schema';
import { validPushConfigQuery } from '../../../functions/api/get-push-config/schema';
import { validEventsBody } from '../../../functions/api/ingest-events/schema';
import { validProfilesBody } from '../../../functions/api/ingest-profiles/schema';
import { validReportQuery } from '../../../functions/api/get-affiliate-report/schema';
import { validAffiliatesQuery } from '../../../functions/api/list-affiliates/schema';
import { validEventsQuery } from '../../../functions/api/list-profile-events/schema';
import { validRegistration } from '../../../functions/back-office/affiliate-registration-schema';
import { validSendEmail } from '../../../functions/api/send-email/schema';
import { validSendPush } from '../../../functions/api/send-push/schema';
import { validSendTemplate } from '../../../functions/api/send-template/schema';
import { validSetAffiliate } from '../../../functions/api/set-affiliate/schema';
import type { Validator } from '../../../functions/domain/validation';
import { toErrorResponse } from '../../../functions/http/errors';

/** The body the function answers when `validate` refuses `input`: examples of refusals are the function's own words. */
export function refusal(validate: Validator<unknown>, input: unknown, style: 'message' | 'errors' = 'message'): unknown {
  try {
    validate(input);
  } catch (error) {
    return JSON.parse(toErrorResponse(error, { style }).body) as unknown;
  }
  throw new Error(`example meant to be refused passes: ${JSON.stringify(input)}`);
}

/** The validators the handlers use: the examples are checked by the functions' own. */
export const validators = {
  profiles: validProfilesBody,
  events: validEventsBody,
  profileQuery: validProfileQuery,
  eventsQuery: validEventsQuery,
  setAffiliate: validSetAffiliate,
  registerAffiliate: validRegistration,
  affiliatesQuery: validAffiliatesQuery,
  reportQuery: validReportQuery,
  sendEmail: validSendEmail,
  signUp: validSignUpBody,
  signIn: validSignInBody,
  pushConfigQuery: validPushConfigQuery,
  sendPush: validSendPush,
  sendTemplate: validSendTemplate,
} satisfies Record<string, Validator<unknown>>;
export const v = validators;

export const when = '2026-01-31T12:00:00Z';
export const receipt = {
  EncryptionType: 'KMS',
  FailedRecordCount: 0,
  Records: [{ SequenceNumber: '49651739284712039485720394857203948572039485720394', ShardId: 'shardId-000000000000' }],
};
export const notFound = (message: string) => ({ message });
export const appQuery = { descriptions: { app_id: "The application: the key's own." } };
