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
import { fromEnv, type FromEnvInit } from '@aws-sdk/credential-provider-env';

/** The name and shape the SDK's clients call `@aws-sdk/credential-provider-node` by. */
export const defaultProvider = (init?: FromEnvInit) => fromEnv(init);
