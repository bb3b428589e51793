/**
 * The functions EventBridge invokes with AWS's own events (eventFunctions in
 * functions/manifest/operations.ts): one rule each on the default bus,
 * matching the definition's source and detail-types (and, for SES, only the
 * mail of the stack's configuration set), targeting the function, which is
 * granted exactly what its definition lists.
 */
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IStream } from 'aws-cdk-lib/aws-kinesis';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { CONFIGURATION_SET_TAG } from '../../../functions/domain/email-events';
import { eventFunctions } from '../../../functions/manifest/operations';
import type { TableName } from '../../../functions/manifest/resources';
import { definedFunction } from './function-defaults';

export interface EventFunctionsProps {
  tables: Record<TableName, ITable>;
  stream: IStream;
  /** The configuration set the stack's mail goes through (email.ts). */
  configurationSetName: string;
}

export class EventFunctions extends Construct {
  /** By their id in operations.ts. */
  readonly functions: Record<string, NodejsFunction> = {};
  readonly rules: Record<string, Rule> = {};

  constructor(scope: Construct, id: string, props: EventFunctionsProps) {
    super(scope, id);
    for (const definition of eventFunctions) {
      const fn = definedFunction(this, definition, props, { timeout: Duration.seconds(definition.timeoutSeconds) });
      this.rules[definition.id] = new Rule(this, `${definition.id}Rule`, {
        eventPattern: {
          source: [definition.source],
          detailType: [...definition.detailTypes],
          // Another configuration set of the account (another stack's) is not this stack's mail.
          ...(definition.sesConfigurationSet ? { detail: { mail: { tags: { [CONFIGURATION_SET_TAG]: [props.configurationSetName] } } } } : {}),
        },
        // The defaults: EventBridge retries a failed delivery for a day, Lambda a failed invocation twice (the stream
        // refused a record); a repeated event is one record, its insert ids being the event's.
        targets: [new LambdaFunction(fn)],
      });
      this.functions[definition.id] = fn;
    }
  }
}
