/**
 * The functions that run on a schedule (scheduledFunctions in
 * functions/manifest/operations.ts): one EventBridge rule each,
 * targeting the function, which is granted exactly what its definition lists.
 */
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IStream } from 'aws-cdk-lib/aws-kinesis';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { scheduledFunctions } from '../../../functions/manifest/operations';
import type { TableName } from '../../../functions/manifest/resources';
import { definedFunction } from './function-defaults';

export interface ScheduledWorkProps {
  tables: Record<TableName, ITable>;
  stream: IStream;
  postbackHosts?: string;
  /** The operator's push endpoint hosts, for the deferred sender's pushes. */
  pushEndpointHosts?: string;
}

export class ScheduledWork extends Construct {
  /** By their id in operations.ts. */
  readonly functions: Record<string, NodejsFunction> = {};

  constructor(scope: Construct, id: string, props: ScheduledWorkProps) {
    super(scope, id);
    for (const definition of scheduledFunctions) {
      const fn = definedFunction(this, definition, props, { timeout: Duration.seconds(definition.timeoutSeconds) });
      new Rule(this, `${definition.id}Schedule`, {
        schedule: Schedule.rate(Duration.minutes(definition.everyMinutes)),
        // A failed run is not retried: the next one, a minute later, takes the same due rows.
        targets: [new LambdaFunction(fn, { retryAttempts: 0 })],
      });
      this.functions[definition.id] = fn;
    }
  }
}
