/**
 * The REST API: one Lambda function per integrator operation, and one per
 * browser UI (its routed function: the console API, the affiliate portal, the
 * enterprise portal), all behind proxy integrations. API Gateway does no
 * authentication here; every function checks its caller itself (the
 * x-api-key against the keys table, or a session).
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
import { httpOperations, httpRoutes, routedFunctions } from '../../../functions/manifest/operations';
import { gatewayResources, resourcePath } from '../../../functions/manifest/routes';
import type { TableName } from '../../../functions/manifest/resources';
import { definedFunction, httpTimeout } from './function-defaults';

export interface IngestionApiProps {
  tables: Record<TableName, ITable>;
  stream: IStream;
  /** Push endpoint hosts the operator allows besides the browsers' push services (comma-separated). */
  pushEndpointHosts?: string;
  /** The operator's development postback and webhook hosts (postbackHosts in urm-stack.ts). */
  postbackHosts?: string;
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
      const route = httpRoutes().find((candidate) => candidate.id === id);
      if (!route) throw new Error(`apiThrottling names ${id}, which is no operation or route of functions/manifest/operations.ts`);
      const settings = { ...executionLogging, throttlingRateLimit: limits.rateLimit, throttlingBurstLimit: limits.burstLimit };
      return [`${resourcePath(route.path)}/${route.method}`, settings];
    }),
  );
}

export class IngestionApi extends Construct {
  readonly api: RestApi;
  /** The functions of the operations and the routed functions, by their id in functions/manifest/operations.ts. */
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

    for (const routed of routedFunctions) {
      const fn = definedFunction(this, routed, props, { timeout: httpTimeout });
      const integration = new LambdaIntegration(fn, { allowTestInvoke: false });
      // Every method of its resources reaches the router, so an address it does not know gets its 404, not API Gateway's 403.
      for (const path of gatewayResources(routed)) this.api.root.resourceForPath(path).addMethod('ANY', integration);
      // A route with limits of its own (apiThrottling) gets its method too: stage method settings are per resource and method.
      for (const route of routed.routes.filter((candidate) => apiThrottling.operations[candidate.id] !== undefined)) {
        const resource = this.api.root.resourceForPath(resourcePath(route.path));
        if (!resource.node.tryFindChild('ANY')) resource.addMethod('ANY', integration);
        resource.addMethod(route.method, integration);
      }
      this.operations[routed.id] = fn;
    }
  }
}
