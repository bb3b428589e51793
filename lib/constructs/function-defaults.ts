/**
 * What every Lambda function of the service shares, and the one way to build a
 * function from its definition in lib/operations.ts: its log group, its
 * environment and its grants all follow from that definition.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IStream } from 'aws-cdk-lib/aws-kinesis';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type NodejsFunctionProps } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Access, FunctionDefinition } from '../operations';
import { ingestStream, tables as tableDefinitions, type TableName } from '../resources';
import { secretsEnv, secretsPrefix } from '../secrets';

/** Function entries in lib/operations.ts are relative to this. */
export const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export const httpTimeout = Duration.seconds(10);
/** Long enough for a full batch with its DynamoDB retries. */
export const consumerTimeout = Duration.seconds(60);

export const functionDefaults = {
  runtime: Runtime.NODEJS_22_X,
  architecture: Architecture.ARM_64,
  memorySize: 256,
  timeout: httpTimeout,
  projectRoot: repoRoot,
  depsLockFilePath: join(repoRoot, 'package-lock.json'),
  bundling: {
    format: OutputFormat.ESM,
    minify: true,
    sourceMap: true,
    target: 'node22',
    mainFields: ['module', 'main'],
    // Bundle the AWS SDK too: the lock file, not the runtime's copy, decides the version that runs.
    externalModules: [],
    // CommonJS dependencies inside an ESM bundle still call require().
    banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
  },
  environment: {
    NODE_OPTIONS: '--enable-source-maps',
    POWERTOOLS_SERVICE_NAME: 'urm',
  },
} satisfies NodejsFunctionProps;

export interface FunctionResources {
  tables: Record<TableName, ITable>;
  stream: IStream;
}

const grantTable: Record<Access, (table: ITable, fn: NodejsFunction) => void> = {
  read: (table, fn) => table.grantReadData(fn),
  write: (table, fn) => table.grantWriteData(fn),
  readwrite: (table, fn) => table.grantReadWriteData(fn),
};

/**
 * The function of one operation or consumer, granted exactly the tables and
 * stream access its definition lists, and told only those names.
 */
export function definedFunction(
  scope: Construct,
  definition: FunctionDefinition,
  resources: FunctionResources,
  overrides: Partial<NodejsFunctionProps> = {},
): NodejsFunction {
  const access = Object.entries(definition.tables) as [TableName, Access][];
  const environment: Record<string, string> = { ...functionDefaults.environment };
  for (const [name] of access) environment[tableDefinitions[name].envVar] = resources.tables[name].tableName;
  if (definition.stream === 'write') environment[ingestStream.envVar] = resources.stream.streamName;
  const stack = Stack.of(scope);
  if (definition.secrets === 'read') environment[secretsEnv.prefix] = secretsPrefix(stack.stackName);

  const fn = new NodejsFunction(scope, `${definition.id}Function`, {
    ...functionDefaults,
    entry: join(repoRoot, definition.entry),
    handler: 'handler',
    logGroup: new LogGroup(scope, `${definition.id}Logs`, { retention: RetentionDays.ONE_MONTH }),
    ...overrides,
    environment,
  });

  for (const [name, level] of access) grantTable[level](resources.tables[name], fn);
  if (definition.stream === 'write') {
    // Not stream.grantWrite: producers need no ListShards, and the AWS-managed key needs no KMS grant.
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['kinesis:PutRecord', 'kinesis:PutRecords'], resources: [resources.stream.streamArn] }),
    );
  }
  if (definition.secrets === 'read') {
    // SecureStrings under the stack's own path only; the AWS-managed aws/ssm key decrypts for SSM callers without a KMS grant.
    const parameters = stack.formatArn({ service: 'ssm', resource: 'parameter', resourceName: `${secretsPrefix(stack.stackName).slice(1)}/*` });
    fn.addToRolePolicy(new PolicyStatement({ actions: ['ssm:GetParameter'], resources: [parameters] }));
  }
  return fn;
}
