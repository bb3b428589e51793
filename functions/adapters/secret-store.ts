/**
 * The SecretStore a function uses, chosen once at cold start from its
 * environment: SSM Parameter Store in AWS, the DynamoDB table when the local
 * stack sets SECRETS_BACKEND=dynamodb (functions/manifest/secrets.ts). This choice of
 * adapter is the one place the local stack differs from AWS by more than an
 * endpoint, and it is made here, never inside a core.
 */
import { secretsEnv } from '../manifest/secrets';
import { dynamo } from './clients/dynamo';
import { ssm } from './clients/ssm';
import { optionalEnv, requireEnv } from '../runtime/config';
import type { SecretStore } from '../domain/secrets';
import { DynamoSecretStore } from './dynamo-secret-store';
import { SsmSecretStore } from './ssm-secret-store';

export function secretStoreFromEnv(): SecretStore {
  const backend = optionalEnv(secretsEnv.backend, 'ssm');
  if (backend === 'dynamodb') return new DynamoSecretStore(dynamo, requireEnv(secretsEnv.table));
  if (backend === 'ssm') return new SsmSecretStore(ssm, requireEnv(secretsEnv.prefix));
  throw new Error(`${secretsEnv.backend} must be ssm or dynamodb, not "${backend}"`);
}
