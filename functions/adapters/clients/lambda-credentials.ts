/**
 * The credentials of every SDK client in a function's bundle: Lambda gives a
 * function its role's credentials in the environment (AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), the first place the SDK's default
 * chain looks. The bundle takes this module for `@aws-sdk/credential-provider-node`
 * (lib/aws/constructs/function-code.ts), leaving out the rest of that chain
 * (SSO, profiles, STS, instance metadata), which a function never reaches and
 * which weighed about 100 KB of each bundle. Tests and the local stack run the
 * SDK's own chain, whose first step this is.
 */
import type { AwsCredentialIdentity } from '@aws-sdk/types';

export function defaultProvider(): () => Promise<AwsCredentialIdentity> {
  return async () => {
    const {
      AWS_ACCESS_KEY_ID: accessKeyId,
      AWS_SECRET_ACCESS_KEY: secretAccessKey,
      AWS_SESSION_TOKEN: sessionToken,
      AWS_CREDENTIAL_EXPIRATION: expiry,
    } = process.env;
    if (!accessKeyId || !secretAccessKey) throw new Error('Unable to find environment variable credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY).');
    return { accessKeyId, secretAccessKey, ...(sessionToken && { sessionToken }), ...(expiry && { expiration: new Date(expiry) }) };
  };
}
