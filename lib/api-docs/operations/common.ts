/** What the operations' docs share: the validators the examples are checked with, example values, common parameters. */
import { signInBodySchema } from '../../../functions/enterprise-sign-in/schema';
import { signUpBodySchema } from '../../../functions/enterprise-sign-up/schema';
import { profileQuerySchema } from '../../../functions/get-profile/schema';
import { pushConfigQuerySchema } from '../../../functions/get-push-config/schema';
import { eventsBodySchema } from '../../../functions/ingest-events/schema';
import { profilesBodySchema } from '../../../functions/ingest-profiles/schema';
import { reportQuerySchema } from '../../../functions/get-affiliate-report/schema';
import { affiliatesQuerySchema } from '../../../functions/list-affiliates/schema';
import { eventsQuerySchema } from '../../../functions/list-profile-events/schema';
import { validRegistration } from '../../../functions/register-affiliate/schema';
import { sendEmailSchema } from '../../../functions/send-email/schema';
import { sendPushSchema } from '../../../functions/send-push/schema';
import { validSetAffiliate } from '../../../functions/set-affiliate/schema';
import { compileValidator, type Validator } from '../../../functions/shared/domain/validation';
import { toErrorResponse } from '../../../functions/shared/http/errors';

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
