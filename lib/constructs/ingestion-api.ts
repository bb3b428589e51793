/**
 * The REST API: one Lambda function per HTTP operation behind a proxy
 * integration. API Gateway does no authentication here; every function checks
 * the x-api-key itself against the keys table.
 */
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IStream } from 'aws-cdk-lib/aws-kinesis';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { AccessLogFormat, LambdaIntegration, LogGroupLogDestination, RestApi } from 'aws-cdk-lib/aws-apigateway';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { httpOperations } from '../operations';
import type { TableName } from '../resources';
import { definedFunction, httpTimeout } from './function-defaults';

export interface IngestionApiProps {
  tables: Record<TableName, ITable>;
  stream: IStream;
}

export const apiStageName = 'v1';

export class IngestionApi extends Construct {
  readonly api: RestApi;
  /** Operation functions by their id in lib/operations.ts. */
  readonly operations: Record<string, NodejsFunction> = {};

  constructor(scope: Construct, id: string, props: IngestionApiProps) {
    super(scope, id);

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_MONTH });
    this.api = new RestApi(this, 'UrmApi', {
      restApiName: 'UrmApi',
      description: 'urm ingestion and back-office API',
      // API Gateway may only write access logs once the account has a CloudWatch role; a fresh account has none.
      cloudWatchRole: true,
      deployOptions: {
        stageName: apiStageName,
        throttlingRateLimit: 1000,
        throttlingBurstLimit: 2000,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.jsonWithStandardFields(),
      },
    });

    for (const operation of httpOperations) {
      const fn = definedFunction(this, operation, props, { timeout: httpTimeout });
      const resource = this.api.root.resourceForPath(operation.path);
      const integration = new LambdaIntegration(fn);
      resource.addMethod(operation.method, integration);
      // The function answers its own CORS preflight: allowed origins are per application (functions/shared/http/cors.ts).
      if (operation.browser) resource.addMethod('OPTIONS', integration);
      this.operations[operation.id] = fn;
    }
  }
}
