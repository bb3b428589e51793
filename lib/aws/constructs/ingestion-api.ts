/**
 * The REST API: one Lambda function per HTTP operation behind a proxy
 * integration. API Gateway does no authentication here; every function checks
 * the x-api-key itself against the keys table.
 */
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IStream } from 'aws-cdk-lib/aws-kinesis';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import {
  AccessLogFormat,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  RestApi,
  type MethodDeploymentOptions,
  type ThrottleSettings,
} from 'aws-cdk-lib/aws-apigateway';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { httpOperations } from '../../../functions/manifest/operations';
import type { TableName } from '../../../functions/manifest/resources';
import { definedFunction, httpTimeout } from './function-defaults';

export interface IngestionApiProps {
  tables: Record<TableName, ITable>;
  stream: IStream;
  /** Push endpoint hosts the operator allows besides the browsers' push services (comma-separated). */
  pushEndpointHosts?: string;
}

export const apiStageName = 'v1';

/**
 * What API Gateway admits, in requests per second (rate) and at once (burst),
 * for all callers together: a stage limit, and lower ones on the operations
 * that are abuse targets (password and sign-in guessing, account creation,
 * scrypt hashing). Throttled requests get 429 before any function runs.
 * These are stage method settings, not a usage plan: a usage plan throttles
 * per API Gateway API key, and the functions check their own keys instead.
 */
export const apiThrottling: { stage: Required<ThrottleSettings>; operations: Record<string, Required<ThrottleSettings>> } = {
  stage: { rateLimit: 1000, burstLimit: 2000 },
  operations: {
    RegisterAffiliate: { rateLimit: 20, burstLimit: 40 },
    EnterpriseSignUp: { rateLimit: 20, burstLimit: 40 },
    EnterpriseSignIn: { rateLimit: 50, burstLimit: 100 },
    EnterpriseRedirect: { rateLimit: 50, burstLimit: 100 },
    AffiliateSignIn: { rateLimit: 50, burstLimit: 100 },
    AffiliateRequestReset: { rateLimit: 20, burstLimit: 40 },
    AffiliateResetPassword: { rateLimit: 20, burstLimit: 40 },
  },
};

/** Errors only, and never request or response bodies: they carry keys, passwords and tokens. */
const executionLogging = { loggingLevel: MethodLoggingLevel.ERROR, dataTraceEnabled: false } satisfies MethodDeploymentOptions;

/** Stage method settings of the operations with their own limits, keyed `/path/METHOD` as API Gateway names them. */
function operationThrottling(): Record<string, MethodDeploymentOptions> {
  return Object.fromEntries(
    Object.entries(apiThrottling.operations).map(([id, limits]) => {
      const operation = httpOperations.find((candidate) => candidate.id === id);
      if (!operation) throw new Error(`apiThrottling names ${id}, which is no operation of functions/manifest/operations.ts`);
      const settings = { ...executionLogging, throttlingRateLimit: limits.rateLimit, throttlingBurstLimit: limits.burstLimit };
      return [`${operation.path}/${operation.method}`, settings];
    }),
  );
}

export class IngestionApi extends Construct {
  readonly api: RestApi;
  /** Operation functions by their id in functions/manifest/operations.ts. */
  readonly operations: Record<string, NodejsFunction> = {};

  constructor(scope: Construct, id: string, props: IngestionApiProps) {
    super(scope, id);

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_MONTH });
    this.api = new RestApi(this, 'UrmApi', {
      restApiName: 'UrmApi',
      description: 'urm ingestion and back-office API',
      // API Gateway may only write access logs once the account has a CloudWatch role; a fresh account has none.
      cloudWatchRole: true,
      // Every request body reaches the function as its bytes (base64), so it can refuse invalid UTF-8: as text, API
      // Gateway would already have replaced each bad byte with U+FFFD (docs/api.md, "Security"). Answers stay text.
      binaryMediaTypes: ['*/*'],
      deployOptions: {
        stageName: apiStageName,
        throttlingRateLimit: apiThrottling.stage.rateLimit,
        throttlingBurstLimit: apiThrottling.stage.burstLimit,
        methodOptions: operationThrottling(),
        ...executionLogging,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.jsonWithStandardFields(),
      },
    });
    // API Gateway writes execution logs to a group of this name, creating it without expiry unless it exists first.
    const executionLogs = new LogGroup(this, 'ExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${this.api.restApiId}/${apiStageName}`,
      retention: RetentionDays.ONE_MONTH,
    });
    this.api.deploymentStage.node.addDependency(executionLogs);

    for (const operation of httpOperations) {
      const fn = definedFunction(this, operation, props, { timeout: httpTimeout });
      const resource = this.api.root.resourceForPath(operation.path);
      // No test-invoke permission: it is one more resource per method, for the API Gateway console's Test button only, and the
      // stack must stay under CloudFormation's 500 resources with one function per operation.
      const integration = new LambdaIntegration(fn, { allowTestInvoke: false });
      resource.addMethod(operation.method, integration);
      // The function answers its own CORS preflight: allowed origins are per application (functions/http/cors.ts).
      if (operation.browser) resource.addMethod('OPTIONS', integration);
      this.operations[operation.id] = fn;
    }
  }
}
