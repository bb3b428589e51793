/**
 * Where secrets live, and how a function is told: the one place the local
 * stack and AWS differ by adapter, not only by endpoint (docs/architecture.md).
 *
 * - AWS: SSM Parameter Store SecureStrings under `/urm/<stack name>/`; a
 *   function that reads secrets gets SECRETS_PREFIX and ssm:GetParameter on
 *   that path only.
 * - Local: a DynamoDB table of DynamoDB Local, selected with
 *   SECRETS_BACKEND=dynamodb and named by SECRETS_TABLE.
 */
import type { TableDefinition } from './resources';

export const secretsEnv = {
  backend: 'SECRETS_BACKEND',
  prefix: 'SECRETS_PREFIX',
  table: 'SECRETS_TABLE',
} as const;

/** The stack output that names the path (read by the admin command line). */
export const secretsPrefixOutput = 'SecretsPrefix';

/** The SSM parameter path of a stack's secrets, without a trailing slash. */
export function secretsPrefix(stackName: string): string {
  return `/urm/${stackName}`;
}

/** Local stack only: in AWS the same secrets are SSM parameters. */
export const localSecretsTable: TableDefinition = {
  id: 'LocalSecretsTable',
  envVar: secretsEnv.table,
  localName: 'urm-secrets',
  partitionKey: { name: 'name', type: 'S' },
};
