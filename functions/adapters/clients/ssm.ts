/**
 * The SSM client, created once per container (one module per client: see dynamo.ts).
 * Secrets (VAPID private keys) in AWS; the local stack reads them from DynamoDB instead (functions/manifest/secrets.ts).
 */
import { SSMClient } from '@aws-sdk/client-ssm';

export const ssm = new SSMClient({});
