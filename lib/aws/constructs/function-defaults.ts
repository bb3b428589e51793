/**
 * What every Lambda function of the service shares, and the one way to build a
 * function from its definition in functions/manifest/operations.ts: its log group, its
 * environment and its grants all follow from that definition.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IStream } from 'aws-cdk-lib/aws-kinesis';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type NodejsFunctionProps } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { httpFunctionTimeoutSeconds, type Access, type FunctionDefinition } from '../../../functions/manifest/operations';
import {
  ingestStream,
  postbackSending,
  pushSending,
  tables as tableDefinitions,
  type TableDefinition,
  type TableName,
} from '../../../functions/manifest/resources';
import { secretsEnv, secretsPrefix } from '../../../functions/manifest/secrets';
import { bundledCode, bundleHandler, type BundleOptions } from './function-code';

/** Function entries in functions/manifest/operations.ts are relative to this. */
export const repoRoot = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

export const httpTimeout = Duration.seconds(httpFunctionTimeoutSeconds);
/** Long enough for a full batch with its DynamoDB retries. */
export const consumerTimeout = Duration.seconds(60);

/** The newest Node.js runtime aws-cdk-lib knows; every handler is an async (event, context) function, as Node.js 24 requires. */
const runtime = Runtime.NODEJS_24_X;

/** How every handler is bundled (function-code.ts builds and caches the bundles). */
export const bundleOptions = {
  format: OutputFormat.ESM,
  minify: true,
  sourceMap: true,
  // The bundle's syntax follows the runtime: nodejs24.x → node24.
  target: runtime.name.replace(/^nodejs(\d+)\.x$/, 'node$1'),
  mainFields: ['module', 'main'],
  // Bundle the AWS SDK too: the lock file, not the runtime's copy, decides the version that runs.
  externalModules: [],
  // CommonJS dependencies inside an ESM bundle still call require().
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
} satisfies BundleOptions;

export const functionDefaults = {
  runtime,
  architecture: Architecture.ARM_64,
  memorySize: 256,
  timeout: httpTimeout,
  environment: {
    NODE_OPTIONS: '--enable-source-maps',
  },
} satisfies NodejsFunctionProps;

export interface FunctionResources {
  tables: Record<TableName, ITable>;
  stream: IStream;
  /** The operator's push endpoint hosts (pushEndpointHosts in urm-stack.ts), for the functions that say `pushEndpoints`. */
  pushEndpointHosts?: string;
  /** The operator's development postback hosts (postbackHosts in urm-stack.ts), for the functions that say `postbackHosts`. */
  postbackHosts?: string;
}

// The data actions of CDK's grantReadData/grantWriteData, on the table alone: those grants add `<table>/index/*`
// whenever a table has an index, and no DynamoDB Streams actions (no table has a stream).
const readActions = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:Scan', 'dynamodb:ConditionCheckItem'];
const writeActions = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
const tableActions: Record<Access, string[]> = {
  read: [...readActions, 'dynamodb:DescribeTable'],
  write: [...writeActions, 'dynamodb:DescribeTable'],
  readwrite: [...readActions, ...writeActions, 'dynamodb:DescribeTable'],
};

/** The ARN of an index the definition says the function queries; throws for an index its table does not have. */
function indexArn(definition: FunctionDefinition, name: TableName, index: string, table: ITable): string {
  const declared = (tableDefinitions[name] as TableDefinition).indexes ?? [];
  if (!declared.some((candidate) => candidate.name === index)) {
    throw new Error(`${definition.id} queries index ${index} of the ${name} table, which has no such index`);
  }
  if (!definition.tables[name]?.includes('read')) throw new Error(`${definition.id} queries ${name}.${index} but may not read ${name}`);
  return `${table.tableArn}/index/${index}`;
}

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
  // Powertools' `service`: the metrics' one dimension is the function (functions/manifest/metrics.ts). Log lines keep
  // `urm`, which functions/runtime/logger.ts names itself.
  const environment: Record<string, string> = { ...functionDefaults.environment, POWERTOOLS_SERVICE_NAME: definition.id };
  for (const [name] of access) environment[tableDefinitions[name].envVar] = resources.tables[name].tableName;
  if (definition.stream === 'write') environment[ingestStream.envVar] = resources.stream.streamName;
  const stack = Stack.of(scope);
  if (definition.secretReads || definition.secretChecks || definition.secretWrites) environment[secretsEnv.prefix] = secretsPrefix(stack.stackName);
  if (definition.pushEndpoints && resources.pushEndpointHosts) environment[pushSending.endpointHostsEnvVar] = resources.pushEndpointHosts;
  if (definition.postbackHosts && resources.postbackHosts) environment[postbackSending.allowedHostsEnvVar] = resources.postbackHosts;

  const logGroup = new LogGroup(scope, `${definition.id}Logs`, { retention: RetentionDays.ONE_MONTH });
  // Its own role, allowed to write its log group only (AWSLambdaBasicExecutionRole would allow every log group).
  // What its definition grants is the role's inline policy, not a policy resource of its own: one resource less per
  // function keeps the stack far from CloudFormation's 500 (grants added later by other constructs still make one).
  const policy = new PolicyDocument();
  const role = new Role(scope, `${definition.id}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), inlinePolicies: { access: policy } });
  policy.addStatements(new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logGroup.logGroupArn] }));
  const fn = new NodejsFunction(scope, `${definition.id}Function`, {
    ...functionDefaults,
    code: bundledCode(scope, repoRoot, definition.entry, bundleOptions),
    handler: bundleHandler,
    logGroup,
    role,
    ...overrides,
    environment,
  });

  for (const [name, level] of access) {
    policy.addStatements(new PolicyStatement({ actions: tableActions[level], resources: [resources.tables[name].tableArn] }));
  }
  for (const [name, indexes] of Object.entries(definition.indexes ?? {}) as [TableName, string[]][]) {
    const table = resources.tables[name];
    const arns = indexes.map((index) => indexArn(definition, name, index, table));
    policy.addStatements(new PolicyStatement({ actions: ['dynamodb:Query'], resources: arns }));
  }
  if (definition.stream === 'write') {
    // Not stream.grantWrite: producers need no ListShards, and the AWS-managed key needs no KMS grant.
    policy.addStatements(new PolicyStatement({ actions: ['kinesis:PutRecord', 'kinesis:PutRecords'], resources: [resources.stream.streamArn] }));
  }
  const parameters = (patterns: readonly string[]) =>
    patterns.map((pattern) =>
      stack.formatArn({ service: 'ssm', resource: 'parameter', resourceName: `${secretsPrefix(stack.stackName).slice(1)}/${pattern}` }),
    );
  if (definition.secretReads) {
    // Only the kinds of secret it uses (an identity secret, a VAPID key, a postback secret), never the whole path; the
    // AWS-managed aws/ssm key decrypts SecureStrings for SSM callers without a KMS grant.
    // Sids keep reads and writes two statements: IAM's policy minimizing would merge those on the same names.
    policy.addStatements(new PolicyStatement({ sid: 'ReadSecrets', actions: ['ssm:GetParameter'], resources: parameters(definition.secretReads) }));
  }
  if (definition.secretChecks) {
    // Whether a secret exists, by name (SecretStore.exists): DescribeParameters takes no resource ARN in IAM, and answers metadata, never a value.
    policy.addStatements(new PolicyStatement({ actions: ['ssm:DescribeParameters'], resources: ['*'] }));
  }
  if (definition.secretWrites) {
    // Writes only to the names the patterns allow (e.g. postback secrets), never to another kind of secret.
    policy.addStatements(new PolicyStatement({ sid: 'WriteSecrets', actions: ['ssm:PutParameter'], resources: parameters(definition.secretWrites) }));
  }
  return fn;
}
