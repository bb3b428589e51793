/** What the operations' docs share: the validators the examples are checked with, example values, common parameters. */
import { signInBodySchema } from '../../../functions/api/enterprise-sign-in/schema';
import { signUpBodySchema } from '../../../functions/api/enterprise-sign-up/schema';
import { profileQuerySchema } from '../../../functions/api/get-profile/schema';
import { pushConfigQuerySchema } from '../../../functions/api/get-push-config/schema';
import { eventsBodySchema } from '../../../functions/api/ingest-events/schema';
import { profilesBodySchema } from '../../../functions/api/ingest-profiles/schema';
import { reportQuerySchema } from '../../../functions/api/get-affiliate-report/schema';
import { affiliatesQuerySchema } from '../../../functions/api/list-affiliates/schema';
import { eventsQuerySchema } from '../../../functions/api/list-profile-events/schema';
import { validRegistration } from '../../../functions/api/register-affiliate/schema';
import { sendEmailSchema } from '../../../functions/api/send-email/schema';
import { sendPushSchema } from '../../../functions/api/send-push/schema';
import { validSetAffiliate } from '../../../functions/api/set-affiliate/schema';
import { compileValidator, type Validator } from '../../../functions/domain/validation';
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

/** The validators the handlers use, or ones compiled from the same schemas. */
export const validators = {
  profiles: compileValidator(profilesBodySchema),
  events: compileValidator(eventsBodySchema),
  profileQuery: compileValidator(profileQuerySchema, 'query string'),
  eventsQuery: compileValidator(eventsQuerySchema, 'query string'),
  setAffiliate: validSetAffiliate,
  registerAffiliate: validRegistration,
  affiliatesQuery: compileValidator(affiliatesQuerySchema, 'query string'),
  reportQuery: compileValidator(reportQuerySchema, 'query string'),
  sendEmail: compileValidator(sendEmailSchema),
  signUp: compileValidator(signUpBodySchema),
  signIn: compileValidator(signInBodySchema),
  pushConfigQuery: compileValidator(pushConfigQuerySchema, 'query string'),
  sendPush: compileValidator(sendPushSchema),
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
