import { beforeAll, describe, expect, jest, test } from '@jest/globals';
import { AssetStaging, type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import {
  eventFunctions,
  httpOperations,
  httpRoutes,
  routedFunctions,
  scheduledFunctions,
  streamConsumers,
  type HttpOperation,
} from '../../functions/manifest/operations';
import { identitySecretName } from '../../functions/domain/identity';
import { postbackSecretName } from '../../functions/domain/postbacks';
import { vapidPrivateKeySecret } from '../../functions/domain/push';
import { gatewayResources, resourcePath } from '../../functions/manifest/routes';
import { emailSending, ingestStream, postbackSending, pushSending, tables, type TableDefinition, type TableName } from '../../functions/manifest/resources';
import { secretsEnv, secretsPrefix } from '../../functions/manifest/secrets';
import { stackOutputs, UrmStack } from '../../lib/aws/urm-stack';
import { apiThrottling } from '../../lib/aws/constructs/ingestion-api';
import { roleStatements, testApp } from '../support/cdk';

type Json = Record<string, unknown>;
interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

let stack: UrmStack;
let template: Template;

// Synthesized once: bundling every function takes seconds. The cdk.json feature flags apply, as in `cdk synth`.
beforeAll(() => {
  stack = new UrmStack(testApp(), 'UrmTest');
  template = Template.fromStack(stack);
});

const logicalId = (construct: IConstruct) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
const ref = (construct: IConstruct) => ({ Ref: logicalId(construct) });
const arn = (construct: IConstruct) => ({ 'Fn::GetAtt': [logicalId(construct), 'Arn'] });
const tableEntries = () => Object.entries(tables) as [TableName, TableDefinition][];
const allFunctions = () => [
  ...httpOperations.map((op) => ({ definition: op, fn: stack.ingestion.operations[op.id], timeout: 10 })),
  ...routedFunctions.map((routed) => ({ definition: routed, fn: stack.ingestion.operations[routed.id], timeout: 10 })),
  ...streamConsumers.map((c) => ({ definition: c, fn: stack.pipeline.consumers[c.id], timeout: 60 })),
  ...scheduledFunctions.map((f) => ({ definition: f, fn: stack.scheduled.functions[f.id], timeout: f.timeoutSeconds })),
  ...eventFunctions.map((f) => ({ definition: f, fn: stack.events.functions[f.id], timeout: f.timeoutSeconds })),
];

/** Every Allow statement of the policies attached to a function's role. */
function allowedStatements(fn: IConstruct & { role?: IConstruct }): Statement[] {
  expect(fn.role).toBeDefined();
  return (roleStatements(template, logicalId(fn.role!)) as Statement[]).filter((statement) => statement.Effect === 'Allow');
}

const actionsOf = (statement: Statement) => [statement.Action].flat();

/** The IAM actions that give a parameter's value (or its history, which holds the values). */
const secretReadActions = ['ssm:GetParameter', 'ssm:GetParameters', 'ssm:GetParametersByPath', 'ssm:GetParameterHistory'];

/** Whether an IAM pattern (`*` any run of characters, `?` one) matches a name, as IAM compares actions and ARNs. */
function globMatches(pattern: string, name: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, 'i').test(name);
}

/** The parameter-name pattern of a statement's resource (`*` for any), from the template's ARN (partition, region and account are references). */
function parameterPattern(resource: unknown): string {
  if (resource === '*') return '*';
  const text = JSON.stringify(resource);
  const at = text.indexOf(':parameter');
  return at < 0 ? '' : text.slice(at + ':parameter'.length).replace(/"\]*\}*$/, '');
}

describe('the ingestion stream', () => {
  test('is on-demand and encrypted with the AWS-managed KMS key', () => {
    template.resourceCountIs('AWS::Kinesis::Stream', 1);
    template.hasResourceProperties('AWS::Kinesis::Stream', {
      StreamModeDetails: { StreamMode: 'ON_DEMAND' },
      StreamEncryption: { EncryptionType: 'KMS', KeyId: 'alias/aws/kinesis' },
      ShardCount: Match.absent(),
    });
  });

  test('sends failed batches to an encrypted, TLS-only queue that keeps them 14 days', () => {
    const queue = stack.pipeline.failureQueue;

    template.hasResourceProperties('AWS::SQS::Queue', { SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [ref(queue)],
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
  });
});

describe('each stream consumer', () => {
  test('has one event source mapping on the stream', () => {
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', streamConsumers.length);
  });

  for (const consumer of streamConsumers) {
    test(`${consumer.id} bisects, reports partial failures, retries boundedly and sends failures to the queue`, () => {
      const fn = stack.pipeline.consumers[consumer.id];

      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: ref(fn),
        // An enhanced fan-out consumer reads through its own stream consumer (the test below).
        EventSourceArn: consumer.fanOut === 'enhanced' ? Match.anyValue() : arn(stack.pipeline.stream),
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: consumer.batchSize,
        BisectBatchOnFunctionError: true,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        MaximumRetryAttempts: consumer.retryAttempts,
        MaximumRecordAgeInSeconds: consumer.maxRecordAgeSeconds,
        ParallelizationFactor: 1,
        DestinationConfig: { OnFailure: { Destination: arn(stack.pipeline.failureQueue) } },
      });
    });

    if (consumer.fanOut === 'enhanced') {
      test(`${consumer.id} reads the stream through its own enhanced fan-out consumer, not the shards' shared reads`, () => {
        const consumers = template.findResources('AWS::Kinesis::StreamConsumer', {
          Properties: { ConsumerName: consumer.id, StreamARN: arn(stack.pipeline.stream) },
        });
        const [consumerId] = Object.keys(consumers);
        expect(consumerId).toBeDefined();

        const mappings = Object.values(
          template.findResources('AWS::Lambda::EventSourceMapping', { Properties: { FunctionName: ref(stack.pipeline.consumers[consumer.id]) } }),
        );
        expect(mappings).toHaveLength(1);
        expect(JSON.stringify(mappings[0].Properties.EventSourceArn)).toContain(consumerId);
      });
    }

    test(`${consumer.id} receives only ${consumer.kinds.join(' and ')} records`, () => {
      const fn = stack.pipeline.consumers[consumer.id];

      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: ref(fn),
        FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ data: { kind: consumer.kinds } }) }] },
      });
    });
  }
});

describe('the tables', () => {
  test('are exactly those of functions/manifest/resources.ts', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', tableEntries().length);
  });

  for (const [name, definition] of tableEntries()) {
    test(`${definition.id} is on-demand, encrypted, point-in-time recoverable and retained`, () => {
      template.hasResource('AWS::DynamoDB::Table', {
        DeletionPolicy: 'Retain',
        Properties: {
          TableName: Match.absent(),
          KeySchema: Match.arrayWith([{ AttributeName: definition.partitionKey.name, KeyType: 'HASH' }]),
          BillingMode: 'PAY_PER_REQUEST',
          SSESpecification: { SSEEnabled: true },
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          TimeToLiveSpecification: definition.timeToLiveAttribute ? { AttributeName: definition.timeToLiveAttribute, Enabled: true } : Match.absent(),
        },
      });
    });

    test(`${definition.id} has the indexes of its definition`, () => {
      const properties = template.findResources('AWS::DynamoDB::Table')[logicalId(stack.data.tables[name])].Properties;
      const indexNames = (kind: 'global' | 'local') =>
        (definition.indexes ?? [])
          .filter((index) => index.kind === kind)
          .map((index) => index.name)
          .sort();
      const synthesized = (list?: { IndexName: string }[]) => (list ?? []).map((index) => index.IndexName).sort();

      expect(synthesized(properties.GlobalSecondaryIndexes)).toEqual(indexNames('global'));
      expect(synthesized(properties.LocalSecondaryIndexes)).toEqual(indexNames('local'));
    });
  }

  test('the keys table is found by app through its by-app global index', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: 'key_hash', KeyType: 'HASH' }],
      GlobalSecondaryIndexes: [
        Match.objectLike({
          IndexName: 'by-app',
          KeySchema: [
            { AttributeName: 'app_id', KeyType: 'HASH' },
            { AttributeName: 'key_id', KeyType: 'RANGE' },
          ],
        }),
      ],
    });
  });
  test("the profiles table lists an application's players through a keys-only by-app index on keys that never change", () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'by-app',
          KeySchema: [
            { AttributeName: 'app_id', KeyType: 'HASH' },
            { AttributeName: 'profile_id', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
      ],
    });
  });
});

describe('the stack', () => {
  test("stays well under CloudFormation's 500 resources per stack, with room for the CRM's operations", () => {
    const resources = Object.keys(template.toJSON().Resources).length;

    // A browser UI's new page is a route of its routed function, free in resources; an integrator operation costs about six
    // (function, role, log group, API resource, method, permission). 400 leaves room for what is planned and a warning before 500.
    if (resources >= 400) {
      throw new Error(
        `the stack has ${resources} resources: split it before it reaches CloudFormation's 500, into nested stacks by area ` +
          '(aws-cdk-lib NestedStack: ingestion, the affiliate programme, the CRM, the back office), each taking the shared tables and stream as props',
      );
    }
    expect(resources).toBeLessThan(400);
  });
});

describe('the functions', () => {
  test('are one per integrator operation, browser UI, consumer, scheduled and event function, and nothing else', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    const nodeFunctions = functions.filter((fn) => String(fn.Properties.Runtime).startsWith('nodejs'));

    expect(nodeFunctions.length).toBe(
      httpOperations.length + routedFunctions.length + streamConsumers.length + scheduledFunctions.length + eventFunctions.length,
    );
    // Besides them only the handler CDK's BucketDeployment brings for the SDK's CDN (test/infra/push-cdn.test.ts).
    expect(functions.length).toBe(nodeFunctions.length + 1);
  });

  test("run Node.js 24 on arm64 with 256 MB, source maps, a month of logs and their id as Powertools' service", () => {
    for (const { definition, fn, timeout } of allFunctions()) {
      expect(fn).toBeTruthy();
      template.hasResourceProperties('AWS::Lambda::Function', {
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        MemorySize: 256,
        Timeout: timeout,
        Handler: 'index.handler',
        Environment: {
          Variables: Match.objectLike({ NODE_OPTIONS: '--enable-source-maps', POWERTOOLS_SERVICE_NAME: definition.id }),
        },
        LoggingConfig: { LogGroup: { Ref: Match.stringLikeRegexp(`${definition.id}Logs`) } },
        Role: { 'Fn::GetAtt': [logicalId(fn.role!), 'Arn'] },
      });
    }
    template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
  });

  test("each have a role of their own, with no managed policy, that may write only their own log group (or their area's)", () => {
    for (const { definition, fn } of allFunctions()) {
      const role = template.findResources('AWS::IAM::Role')[logicalId(fn.role!)];
      const logGroup = fn.node.scope!.node.findChild(`${definition.id}Logs`);
      const logs = allowedStatements(fn).filter((statement) => actionsOf(statement).some((action) => action.startsWith('logs:')));

      expect(role.Properties.ManagedPolicyArns).toBe(undefined);
      expect(logs).toEqual([{ Effect: 'Allow', Action: ['logs:CreateLogStream', 'logs:PutLogEvents'], Resource: arn(logGroup) }]);
    }
  });

  test('have a log group each, a browser UI included (one routed function each)', () => {
    const groups = allFunctions().map(({ fn }) =>
      JSON.stringify(template.findResources('AWS::Lambda::Function')[logicalId(fn)].Properties.LoggingConfig.LogGroup),
    );

    expect(new Set(groups).size).toBe(groups.length);
  });

  test('may query exactly the indexes their definition lists, and no index wildcard', () => {
    for (const { definition, fn } of allFunctions()) {
      const resources = allowedStatements(fn)
        .flatMap((statement) => [statement.Resource].flat())
        .map((resource) => JSON.stringify(resource));
      const indexes = resources.filter((resource) => resource.includes('/index/'));
      const expected = (Object.entries(definition.indexes ?? {}) as [TableName, string[]][]).flatMap(([name, names]) =>
        names.map((index) => JSON.stringify({ 'Fn::Join': ['', [arn(stack.data.tables[name]), `/index/${index}`]] })),
      );

      expect(indexes.sort()).toEqual(expected.sort());
    }
    expect(JSON.stringify(template.toJSON())).not.toMatch(/\/index\/\*/);
  });

  test('learn the names of exactly the tables and stream they are granted', () => {
    for (const { definition, fn } of allFunctions()) {
      const variables = template.findResources('AWS::Lambda::Function')[logicalId(fn)].Properties.Environment.Variables;
      const expected: Json = { NODE_OPTIONS: '--enable-source-maps', POWERTOOLS_SERVICE_NAME: definition.id };
      for (const name of Object.keys(definition.tables) as TableName[]) {
        expected[tables[name].envVar] = ref(stack.data.tables[name]);
      }
      if (definition.stream === 'write') expected[ingestStream.envVar] = ref(stack.pipeline.stream);
      if (definition.email === 'send') expected[emailSending.configurationSetEnvVar] = ref(stack.email.configurationSet);
      if (definition.secretReads || definition.secretChecks || definition.secretWrites) expected[secretsEnv.prefix] = secretsPrefix(stack.stackName);

      expect(variables).toEqual(expected);
    }
  });
});

describe('the ingest functions', () => {
  const ingestIds = ['IngestProfiles', 'IngestEvents'];

  for (const id of ingestIds) {
    test(`${id} may put records on the stream and nothing more there`, () => {
      const statements = allowedStatements(stack.ingestion.operations[id]);
      const kinesis = statements.filter((statement) => actionsOf(statement).some((action) => action.startsWith('kinesis:')));

      expect(kinesis).toEqual([{ Effect: 'Allow', Action: ['kinesis:PutRecord', 'kinesis:PutRecords'], Resource: arn(stack.pipeline.stream) }]);
    });

    // Keys are found by their hash (GetItem); only the admin command line lists them through the by-app index.
    test(`${id} may read the keys table, and none of its indexes`, () => {
      const keys = stack.data.tables.keys;
      const statements = allowedStatements(stack.ingestion.operations[id]);

      const read = statements.find((statement) => actionsOf(statement).includes('dynamodb:GetItem'));
      expect(read).toBeTruthy();
      const onKeys = [read!.Resource].flat().filter((resource) => JSON.stringify(resource).includes(`"${logicalId(keys)}"`));
      expect(onKeys).toEqual([arn(keys)]);
    });

    // The apps table: the site origins a browser key may call from (CORS).
    test(`${id} may not write any table, nor touch any table but the keys and apps tables`, () => {
      const readable = new RegExp(`"(${logicalId(stack.data.tables.keys)}|${logicalId(stack.data.tables.apps)})"`);
      const dynamo = allowedStatements(stack.ingestion.operations[id]).filter((statement) =>
        actionsOf(statement).some((action) => action.startsWith('dynamodb:')),
      );
      const writes = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', '*'].map((action) => `dynamodb:${action}`);

      expect(dynamo.length > 0).toBeTruthy();
      for (const statement of dynamo) {
        expect(actionsOf(statement).filter((action) => writes.includes(action))).toEqual([]);
        const resources = [statement.Resource].flat();
        for (const resource of resources) expect(JSON.stringify(resource)).toMatch(readable);
      }
    });
  }
});

describe('the senders table', () => {
  const onSenders = (fn: IConstruct & { role?: IConstruct }) =>
    allowedStatements(fn)
      .filter((statement) => [statement.Resource].flat().some((resource) => JSON.stringify(resource) === JSON.stringify(arn(stack.data.tables.senders))))
      .flatMap(actionsOf)
      .filter((action) => action !== 'dynamodb:DescribeTable');

  test("no function may write it: senders are assigned by the operator's command line only", () => {
    for (const { definition, fn } of allFunctions()) {
      const writes = onSenders(fn).filter((action) => /Put|Update|Delete|Write/.test(action));
      expect({ function: definition.id, writes }).toEqual({ function: definition.id, writes: [] });
    }
  });

  test('send_email and the console, which send as a channel sender, may read who holds each sender', () => {
    for (const id of ['SendEmail', 'Console']) {
      expect(onSenders(stack.ingestion.operations[id]!)).toContain('dynamodb:GetItem');
    }
  });
});

describe('the click address function', () => {
  const dynamoStatements = () =>
    allowedStatements(stack.ingestion.operations.TrackClick).filter((statement) => actionsOf(statement).some((action) => action.startsWith('dynamodb:')));
  const onTable = (name: TableName) =>
    dynamoStatements()
      .filter((statement) => [statement.Resource].flat().some((resource) => JSON.stringify(resource) === JSON.stringify(arn(stack.data.tables[name]))))
      .flatMap(actionsOf)
      .filter((action) => action !== 'dynamodb:DescribeTable')
      .sort();

  test('reads links and affiliates, and no index of either', () => {
    const reads = ['dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Scan'];

    expect(onTable('links')).toEqual(reads);
    expect(onTable('affiliates')).toEqual(reads);
    expect(JSON.stringify(dynamoStatements())).not.toMatch(/\/index\//);
  });

  test('writes click claims, reads them (the visitor-cookie key is kept there), and touches no other table', () => {
    const tablesTouched = Object.keys(tables).filter((name) => onTable(name as TableName).length > 0);

    expect(onTable('clickClaims')).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:BatchWriteItem',
      'dynamodb:ConditionCheckItem',
      'dynamodb:DeleteItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:Scan',
      'dynamodb:UpdateItem',
    ]);
    expect(tablesTouched.sort()).toEqual(['affiliates', 'clickClaims', 'links']);
  });

  test('may put records on the stream and nothing more there', () => {
    const kinesis = allowedStatements(stack.ingestion.operations.TrackClick).filter((statement) =>
      actionsOf(statement).some((action) => action.startsWith('kinesis:')),
    );

    expect(kinesis).toEqual([{ Effect: 'Allow', Action: ['kinesis:PutRecord', 'kinesis:PutRecords'], Resource: arn(stack.pipeline.stream) }]);
  });
});

describe('the postback sender', () => {
  const sender = () => stack.scheduled.functions.SendPostbacks;
  const onTable = (name: TableName) =>
    allowedStatements(sender())
      .filter((statement) => [statement.Resource].flat().some((resource) => JSON.stringify(resource) === JSON.stringify(arn(stack.data.tables[name]))))
      .flatMap(actionsOf)
      .filter((action) => action !== 'dynamodb:DescribeTable')
      .sort();
  const reads = ['dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Scan'];
  const writes = ['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'];

  test('runs every minute from an EventBridge rule, not retried (the next run takes the same due rows)', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: arn(sender()), RetryPolicy: { MaximumRetryAttempts: 0 } })],
    });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: arn(sender()),
      Principal: 'events.amazonaws.com',
    });
  });

  test('reads and writes the funnel table, queries only its postbacks-due index, reads affiliates and apps, and touches nothing else', () => {
    const tablesTouched = Object.keys(tables).filter((name) => onTable(name as TableName).length > 0);
    const indexes = allowedStatements(sender())
      .flatMap((statement) => [statement.Resource].flat())
      .map((r) => JSON.stringify(r))
      .filter((r) => r.includes('/index/'));

    expect(onTable('funnel')).toEqual([...reads, ...writes].sort());
    expect(onTable('affiliates')).toEqual(reads);
    expect(onTable('apps')).toEqual(reads);
    expect(tablesTouched.sort()).toEqual(['affiliates', 'apps', 'funnel']);
    expect(indexes).toEqual([JSON.stringify({ 'Fn::Join': ['', [arn(stack.data.tables.funnel), '/index/postbacks-due']] })]);
    expect(
      allowedStatements(sender())
        .flatMap(actionsOf)
        .filter((action) => action.startsWith('kinesis:')),
    ).toEqual([]);
  });

  test('the funnel table has the sparse postbacks-due index and expires delivery log rows', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [
        Match.objectLike({
          IndexName: 'postbacks-due',
          KeySchema: [
            { AttributeName: 'postback_queue', KeyType: 'HASH' },
            { AttributeName: 'postback_due', KeyType: 'RANGE' },
          ],
        }),
      ],
      TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
    });
  });

  test('the postback hosts of the context reach the functions that check or call postback and webhook URLs only; synth refuses the loopback host and the metadata address', () => {
    const configured = new UrmStack(testApp({ bundle: false, context: { 'urm:postbackHosts': 'receiver.dev.example' } }), 'UrmPostbackHosts');
    const functions = Template.fromStack(configured).findResources('AWS::Lambda::Function');
    const withHosts = Object.entries(functions).filter(([, fn]) => fn.Properties.Environment?.Variables?.[postbackSending.allowedHostsEnvVar] !== undefined);
    const idOf = (fn: IConstruct) => configured.getLogicalId(fn.node.defaultChild as CfnElement);
    // The sender of postbacks, whatever sends templates' webhooks, and where postback URLs are set (console, affiliate portal).
    const expected = [
      configured.scheduled.functions.SendPostbacks,
      configured.scheduled.functions.JourneyTimers,
      configured.scheduled.functions.SendBroadcasts,
      configured.pipeline.consumers.RunJourneys,
      ...['SendTemplate', 'Console', 'AffiliatePortal'].map((id) => configured.ingestion.operations[id]),
    ];

    expect(withHosts.map(([id, fn]) => [id, fn.Properties.Environment.Variables[postbackSending.allowedHostsEnvVar]]).sort()).toEqual(
      expected.map((fn) => [idOf(fn), 'receiver.dev.example']).sort(),
    );
    for (const hosts of ['127.0.0.1', 'localhost', 'receiver.dev.example,169.254.169.254']) {
      expect(() => new UrmStack(testApp({ bundle: false, context: { 'urm:postbackHosts': hosts } }), 'UrmBadPostbackHosts')).toThrow(/urm:postbackHosts/);
    }
  });
});

type SegmentFunction = IConstruct & { role?: IConstruct };

describe('the segment engine', () => {
  const reads = ['dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Scan'];
  const writes = ['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'];
  const onTable = (fn: SegmentFunction, name: TableName) =>
    allowedStatements(fn)
      .filter((statement) => [statement.Resource].flat().some((resource) => JSON.stringify(resource) === JSON.stringify(arn(stack.data.tables[name]))))
      .flatMap(actionsOf)
      .filter((action) => action !== 'dynamodb:DescribeTable')
      .sort();
  const touched = (fn: SegmentFunction) =>
    Object.keys(tables)
      .filter((name) => onTable(fn, name as TableName).length > 0)
      .sort();
  const kinesisActions = (fn: SegmentFunction) =>
    allowedStatements(fn)
      .flatMap(actionsOf)
      .filter((action) => action.startsWith('kinesis:Put'));

  test('the consumer takes profile and event records; reads and writes segments, reads profiles, the timeline and apps, writes the stream', () => {
    const fn = stack.pipeline.consumers.KeepSegments;

    expect(onTable(fn, 'segments')).toEqual([...reads, ...writes].sort());
    for (const name of ['profiles', 'timeline', 'apps'] as const) expect(onTable(fn, name)).toEqual(reads);
    // Only records that cannot be decoded, as every consumer keeps them.
    expect(onTable(fn, 'rejections')).toEqual(writes);
    expect(touched(fn)).toEqual(['apps', 'profiles', 'rejections', 'segments', 'timeline']);
    expect(kinesisActions(fn)).toEqual(['kinesis:PutRecord', 'kinesis:PutRecords']);
  });

  test('the timer runs every minute, queries only the due and by-app indexes, and touches nothing else', () => {
    const fn = stack.scheduled.functions.SegmentTimers;
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({ Arn: arn(fn) })],
    });
    const indexes = allowedStatements(fn)
      .flatMap((statement) => [statement.Resource].flat())
      .map((resource) => JSON.stringify(resource))
      .filter((resource) => resource.includes('/index/'))
      .sort();

    expect(onTable(fn, 'segments')).toEqual([...reads, ...writes].sort());
    for (const name of ['profiles', 'timeline', 'apps'] as const) expect(onTable(fn, name)).toEqual(reads);
    expect(touched(fn)).toEqual(['apps', 'profiles', 'segments', 'timeline']);
    expect(indexes).toEqual(
      [
        JSON.stringify({ 'Fn::Join': ['', [arn(stack.data.tables.segments), '/index/due']] }),
        JSON.stringify({ 'Fn::Join': ['', [arn(stack.data.tables.profiles), '/index/by-app']] }),
      ].sort(),
    );
    expect(kinesisActions(fn)).toEqual(['kinesis:PutRecord', 'kinesis:PutRecords']);
  });
});

describe('the operator read functions (affiliates, segments)', () => {
  const granted: Record<string, TableName[]> = {
    ListAffiliates: ['keys', 'affiliates'],
    GetAffiliateReport: ['keys', 'apps', 'affiliates', 'funnel', 'links'],
    // Segments: the definitions, sizes and members, in one table.
    ListSegments: ['keys', 'segments'],
    ListSegmentMembers: ['keys', 'segments'],
  };

  for (const [id, readable] of Object.entries(granted)) {
    test(`${id} may read exactly the ${readable.join(', ')} tables, write none, and touch no stream`, () => {
      const statements = allowedStatements(stack.ingestion.operations[id]);
      const dynamo = statements.filter((statement) => actionsOf(statement).some((action) => action.startsWith('dynamodb:')));
      const writes = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', '*'].map((action) => `dynamodb:${action}`);
      const tablesTouched = new Set(
        tableEntries()
          .filter(([name]) => dynamo.some((statement) => JSON.stringify(statement.Resource).includes(`"${logicalId(stack.data.tables[name])}"`)))
          .map(([name]) => name),
      );

      expect(dynamo.flatMap(actionsOf).filter((action) => writes.includes(action))).toEqual([]);
      expect([...tablesTouched].sort()).toEqual([...readable].sort());
      expect(statements.flatMap(actionsOf).filter((action) => action.startsWith('kinesis:'))).toEqual([]);
    });
  }
});

describe('the API', () => {
  test('has no API Gateway keys or usage plans: functions check x-api-key themselves', () => {
    template.resourceCountIs('AWS::ApiGateway::ApiKey', 0);
    template.resourceCountIs('AWS::ApiGateway::UsagePlan', 0);
  });

  test("lets API Gateway invoke each method's function from the deployed stage only: one permission per method, none for test-invoke", () => {
    const permissions = Object.values(template.findResources('AWS::Lambda::Permission', { Properties: { Principal: 'apigateway.amazonaws.com' } }));
    const methods = Object.keys(template.findResources('AWS::ApiGateway::Method'));

    expect(permissions).toHaveLength(methods.length);
    expect(JSON.stringify(permissions)).not.toContain('test-invoke-stage');
  });

  for (const routed of routedFunctions) {
    test(`sends every method of ${gatewayResources(routed).join(', ')} to ${routed.id}, whose router answers an unknown route`, () => {
      for (const path of gatewayResources(routed)) {
        template.hasResourceProperties('AWS::ApiGateway::Method', {
          HttpMethod: 'ANY',
          ResourceId: { Ref: resourceIdForPath(path) },
          AuthorizationType: 'NONE',
          Integration: { Type: 'AWS_PROXY', Uri: { 'Fn::Join': ['', Match.arrayWith([arn(stack.ingestion.operations[routed.id])])] } },
        });
      }
    });
  }

  for (const operation of httpOperations) {
    test(`routes ${operation.method} ${operation.path} to ${operation.id} through a proxy integration`, () => {
      const fn = stack.ingestion.operations[operation.id];

      template.hasResourceProperties('AWS::ApiGateway::Method', {
        HttpMethod: operation.method,
        ResourceId: { Ref: resourceIdForPath(operation.path) },
        AuthorizationType: 'NONE',
        ApiKeyRequired: Match.absent(),
        Integration: {
          Type: 'AWS_PROXY',
          IntegrationHttpMethod: 'POST',
          Uri: { 'Fn::Join': ['', Match.arrayWith([arn(fn)])] },
        },
      });
    });
  }

  for (const path of ['/profiles', '/events']) {
    test(`accepts POST ${path}`, () => {
      template.hasResourceProperties('AWS::ApiGateway::Method', { HttpMethod: 'POST', ResourceId: { Ref: resourceIdForPath(path) } });
    });
  }

  test('hands every request body to the function as its bytes (base64), so invalid UTF-8 can be refused', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { BinaryMediaTypes: ['*/*'] });
  });

  test('stage v1 throttles by default and writes access logs', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'v1',
      MethodSettings: Match.arrayWith([Match.objectLike({ HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000 })]),
      // The log group's ARN without the `:*` of its Arn attribute (feature flag apigateway:logGroupDestinationArnWithoutWildcard).
      AccessLogSetting: {
        DestinationArn: {
          'Fn::Join': [
            '',
            [
              'arn:',
              { Ref: 'AWS::Partition' },
              ':logs:',
              { Ref: 'AWS::Region' },
              ':',
              { Ref: 'AWS::AccountId' },
              ':log-group:',
              { Ref: Match.stringLikeRegexp('AccessLogs') },
            ],
          ],
        },
        Format: Match.anyValue(),
      },
    });
  });

  test('stage v1 logs execution errors, never request or response bodies, to a group kept a month', () => {
    const settings = template.findResources('AWS::ApiGateway::Stage')[logicalId(stack.ingestion.api.deploymentStage)].Properties.MethodSettings as Json[];

    expect(settings.length > 0).toBeTruthy();
    for (const setting of settings) expect([setting.LoggingLevel, setting.DataTraceEnabled]).toEqual(['ERROR', false]);
    template.hasResourceProperties('AWS::Logs::LogGroup', {
      LogGroupName: { 'Fn::Join': ['', ['API-Gateway-Execution-Logs_', ref(stack.ingestion.api), '/v1']] },
      RetentionInDays: 30,
    });
  });

  test('stage v1 admits sign-up, sign-in, register_affiliate, the redirect and the affiliate sign-in and reset at lower rates than the rest', () => {
    const settings = template.findResources('AWS::ApiGateway::Stage')[logicalId(stack.ingestion.api.deploymentStage)].Properties.MethodSettings as Json[];
    const limited = Object.entries(apiThrottling.operations);

    expect(limited.map(([id]) => id).sort()).toEqual([
      'AffiliateRequestReset',
      'AffiliateResetPassword',
      'AffiliateSignIn',
      'EnterpriseRedirect',
      'EnterpriseSignIn',
      'EnterpriseSignUp',
      'RegisterAffiliate',
    ]);
    for (const [id, limits] of limited) {
      const operation = httpRoutes().find((candidate) => candidate.id === id)!;
      // API Gateway names a method's path /<path with each / written ~1>.
      const setting = settings.find(
        (candidate) => candidate.ResourcePath === `/${resourcePath(operation.path).replaceAll('/', '~1')}` && candidate.HttpMethod === operation.method,
      );

      expect({ rate: setting?.ThrottlingRateLimit, burst: setting?.ThrottlingBurstLimit }).toEqual({ rate: limits.rateLimit, burst: limits.burstLimit });
      expect(limits.rateLimit < apiThrottling.stage.rateLimit && limits.burstLimit < apiThrottling.stage.burstLimit).toBeTruthy();
    }
  });
});

describe('synthesizing again', () => {
  test('bundles nothing when no function source changed: every bundle is reused from the cloud assembly', () => {
    const first = stack.node.root as ReturnType<typeof testApp>;
    // As a new `cdk synth` process would: nothing remembered in memory, only what is in the cloud assembly.
    AssetStaging.clearAssetHashCache();
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const again = new UrmStack(testApp({ outdir: first.outdir }), 'UrmTest');
      const code = Template.fromStack(again).findResources('AWS::Lambda::Function');
      expect(stderr.mock.calls.map(([text]) => String(text)).filter((text) => text.startsWith('Bundling asset'))).toEqual([]);
      expect(code).toEqual(template.findResources('AWS::Lambda::Function'));
    } finally {
      stderr.mockRestore();
    }
  });
});

describe('the stack outputs', () => {
  test('give every address placeholder the API stage URL', () => {
    const urls = [stackOutputs.baseUrl, stackOutputs.crmUrl, stackOutputs.enterpriseApiUrl, stackOutputs.commsUrl];
    const outputs = template.findOutputs('*');

    for (const key of urls) {
      expect(outputs[key]).toBeTruthy();
      expect(JSON.stringify(outputs[key].Value)).toMatch(new RegExp(`"Ref":"${logicalId(stack.ingestion.api.deploymentStage)}"`));
    }
  });

  test('name the stream and every table, as the admin command line expects', () => {
    template.hasOutput(stackOutputs.streamName, { Value: ref(stack.pipeline.stream) });
    for (const [name, definition] of tableEntries()) {
      template.hasOutput(`${definition.id}Name`, { Value: ref(stack.data.tables[name]) });
    }
  });
});

describe('web push in the stack', () => {
  test('the CDN address and the secrets path are outputs', () => {
    template.hasOutput(stackOutputs.cdnUrl, {
      Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalId(stack.pushCdn.distribution), 'DomainName'] }]] },
    });
    template.hasOutput(stackOutputs.secretsPrefix, { Value: secretsPrefix(stack.stackName) });
  });

  test('the API reference is an output, and its published document names the API stage URL as its server', () => {
    template.hasOutput(stackOutputs.docsUrl, {
      Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalId(stack.pushCdn.distribution), 'DomainName'] }, '/docs/index.html']] },
    });
    const [document] = Object.entries(template.findResources('Custom::CDKBucketDeployment')).filter(([id]) => id.includes('ApiDocument'));
    // openapi.json's servers URL is a deploy-time marker the deployment replaces with the stage URL.
    expect(JSON.stringify(document?.[1].Properties.SourceMarkers)).toMatch(new RegExp(`"Ref":"${logicalId(stack.ingestion.api.deploymentStage)}"`));
  });

  for (const operation of httpOperations.filter((op) => op.browser)) {
    test(`OPTIONS ${operation.path} reaches ${operation.id}, which answers its own CORS preflight`, () => {
      template.hasResourceProperties('AWS::ApiGateway::Method', {
        HttpMethod: 'OPTIONS',
        ResourceId: { Ref: resourceIdForPath(operation.path) },
        AuthorizationType: 'NONE',
        Integration: { Type: 'AWS_PROXY', Uri: { 'Fn::Join': ['', Match.arrayWith([arn(stack.ingestion.operations[operation.id])])] } },
      });
    });
  }

  test('the push endpoint hosts of the context reach exactly the functions that store or send to tokens', () => {
    const configured = new UrmStack(testApp({ bundle: false, context: { 'urm:pushEndpointHosts': 'push.example.com, *.push.example.net' } }), 'UrmPushHosts');
    const functions = Template.fromStack(configured).findResources('AWS::Lambda::Function');
    const variablesOf = (fn: IConstruct) => functions[configured.getLogicalId(fn.node.defaultChild as CfnElement)].Properties.Environment.Variables as Json;

    for (const operation of [...httpOperations, ...routedFunctions]) {
      const hosts = variablesOf(configured.ingestion.operations[operation.id])[pushSending.endpointHostsEnvVar];
      expect([operation.id, hosts]).toEqual([operation.id, operation.pushEndpoints ? 'push.example.com,*.push.example.net' : undefined]);
    }
    expect(
      [...httpOperations, ...routedFunctions]
        .filter((operation) => operation.pushEndpoints)
        .map((operation) => operation.id)
        .sort(),
    ).toEqual(['Console', 'IngestProfiles', 'SendPush', 'SendTemplate']);
  });

  test('only the push senders may touch the push deliveries table: SendPush to put and delete claims, the console (its messaging) also to read its action claims', () => {
    const table = JSON.stringify(arn(stack.data.tables.pushDeliveries));
    const consoleMessaging = ['Console'];
    // The send gate claims each message id there too, put and delete only: send_email with a purpose, the deferred sender, send_template, journeys, broadcasts.
    const pushSenders = ['SendPush', 'SendEmail', 'SendDeferred', 'SendTemplate', 'RunJourneys', 'JourneyTimers', 'SendBroadcasts'];
    for (const { definition, fn } of allFunctions()) {
      // A grant names the table alone, or in a list with its indexes.
      const onTable = allowedStatements(fn).filter((statement) => JSON.stringify(statement.Resource).includes(table.slice(1, -1)));
      if (!pushSenders.includes(definition.id) && !consoleMessaging.includes(definition.id)) {
        expect([definition.id, onTable]).toEqual([definition.id, []]);
        continue;
      }
      expect(onTable.flatMap(actionsOf)).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:DeleteItem']));
      if (pushSenders.includes(definition.id)) expect(onTable.flatMap(actionsOf).filter((action) => /Get|Query|Scan/.test(action))).toEqual([]);
      else expect(onTable.flatMap(actionsOf)).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:UpdateItem']));
    }
  });

  test('the push deliveries expire by TTL', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'subscription', KeyType: 'RANGE' },
      ],
      TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
    });
  });

  test('synth refuses push endpoint hosts that are an IP address, the loopback host, or not a host name', () => {
    for (const hosts of ['127.0.0.1', 'localhost', 'push.example.com,169.254.169.254', 'https://push.example.com']) {
      expect(() => new UrmStack(testApp({ bundle: false, context: { 'urm:pushEndpointHosts': hosts } }), 'UrmBadHosts')).toThrow(
        /urm:pushEndpointHosts|host name/,
      );
    }
  });

  test('a function may get only the kinds of secret it reads, ask only whether one exists of those it checks, and put only those it writes', () => {
    const parameterArn = (pattern: string) => `:parameter${secretsPrefix(stack.stackName)}/${pattern}"`;
    for (const { definition, fn } of allFunctions()) {
      const ssm = allowedStatements(fn).filter((statement) => actionsOf(statement).some((action) => action.startsWith('ssm:')));
      const gets = ssm.filter((statement) => actionsOf(statement).includes('ssm:GetParameter'));
      const describes = ssm.filter((statement) => actionsOf(statement).includes('ssm:DescribeParameters'));
      const writes = ssm.filter((statement) => actionsOf(statement).includes('ssm:PutParameter'));
      expect([definition.id, ssm.length]).toEqual([definition.id, gets.length + describes.length + writes.length]);
      // Each kind its own ARN (an identity secret, a VAPID key, a postback secret), never the whole secrets path.
      for (const [statements, action, patterns] of [
        [gets, 'ssm:GetParameter', definition.secretReads],
        [writes, 'ssm:PutParameter', definition.secretWrites],
      ] as const) {
        if (!patterns) {
          expect([definition.id, action, statements]).toEqual([definition.id, action, []]);
          continue;
        }
        expect(statements.map(actionsOf)).toEqual([[action]]);
        const resources = [statements[0].Resource].flat();
        expect(resources).toHaveLength(patterns.length);
        for (const pattern of patterns) expect(JSON.stringify(resources)).toContain(parameterArn(pattern));
      }
      // DescribeParameters has no resource-level permission: `*`, and answers names, never values.
      expect(describes).toEqual(definition.secretChecks ? [expect.objectContaining({ Action: 'ssm:DescribeParameters', Resource: '*' })] : []);
    }
  });

  test('each function reads only the kinds of secret it uses, and asks only whether the others exist', () => {
    const kinds = (field: 'secretReads' | 'secretChecks') =>
      Object.fromEntries(
        allFunctions()
          .filter(({ definition }) => definition[field])
          .map(({ definition }) => [definition.id, definition[field]]),
      );

    expect(kinds('secretReads')).toEqual({
      // Identity proofs of browser-key writes.
      IngestProfiles: ['apps/*/identity-secret'],
      // VAPID: send_push, the console's push to one player, and the deferred sender's pushes.
      SendPush: ['apps/*/vapid-private-key'],
      Console: ['apps/*/unsubscribe-key', 'apps/*/vapid-private-key'],
      SendDeferred: ['apps/*/vapid-private-key', 'apps/*/unsubscribe-key'],
      // A journey's push and marketing mail, as the events arrive and as its timers fall due.
      RunJourneys: ['apps/*/vapid-private-key', 'apps/*/unsubscribe-key', 'apps/*/webhook-secret'],
      JourneyTimers: ['apps/*/vapid-private-key', 'apps/*/unsubscribe-key', 'apps/*/webhook-secret'],
      SendBroadcasts: ['apps/*/vapid-private-key', 'apps/*/unsubscribe-key', 'apps/*/webhook-secret'],
      // The unsubscribe key, made once if an older application has none: whatever sends marketing mail.
      SendEmail: ['apps/*/unsubscribe-key'],
      // Signing the postbacks.
      SendPostbacks: ['apps/*/affiliates/*/postback-secret'],
      // A template of any kind: marketing mail's unsubscribe key, a push's VAPID key, the webhook signing secret.
      SendTemplate: ['apps/*/unsubscribe-key', 'apps/*/vapid-private-key', 'apps/*/webhook-secret'],
      // Verifying unsubscribe links (never making the key: whatever sends marketing mail does).
      AffiliatePortal: ['apps/*/unsubscribe-key'],
    });
    expect(kinds('secretChecks')).toEqual({
      // Whether the application has an identity secret (Settings), whether an affiliate has a signing secret yet.
      Console: ['apps/*/affiliates/*/postback-secret', 'apps/*/identity-secret'],
      AffiliatePortal: ['apps/*/affiliates/*/postback-secret'],
    });
  });

  test('no function the browser key reaches may read a VAPID private key or a postback signing secret', () => {
    const parameter = (name: string) => `${secretsPrefix(stack.stackName)}/${name}`;
    const [vapid, postback, identity] = [
      parameter(vapidPrivateKeySecret('app_0123abcd')),
      parameter(postbackSecretName('app_0123abcd', 'aff_1')),
      parameter(identitySecretName('app_0123abcd')),
    ];
    const browserFunctions = httpOperations.filter((operation) => operation.browser);
    const readable = (operation: HttpOperation) =>
      allowedStatements(stack.ingestion.operations[operation.id])
        .filter((statement) => actionsOf(statement).some((action) => secretReadActions.some((read) => globMatches(action, read))))
        .flatMap((statement) => [statement.Resource].flat().map(parameterPattern));
    const reads = (operation: HttpOperation, name: string) => readable(operation).some((pattern) => globMatches(pattern, name));

    expect(browserFunctions.map((operation) => operation.id).sort()).toEqual(['GetPushConfig', 'IngestEvents', 'IngestProfiles']);
    for (const operation of browserFunctions) {
      expect([operation.id, reads(operation, vapid), reads(operation, postback)]).toEqual([operation.id, false, false]);
    }
    // The one secret a browser-key function needs: identity proofs on /profiles.
    expect(browserFunctions.filter((operation) => reads(operation, identity)).map((operation) => operation.id)).toEqual(['IngestProfiles']);
  });

  test('the functions that write secrets each put only the kinds they make', () => {
    const writers = Object.fromEntries(
      allFunctions()
        .filter(({ definition }) => definition.secretWrites)
        .map(({ definition }) => [definition.id, definition.secretWrites]),
    );

    expect(writers).toEqual({
      AffiliatePortal: ['apps/*/affiliates/*/postback-secret'],
      // Its affiliates' postbacks, the VAPID keys and the identity secret of its settings.
      Console: ['apps/*/affiliates/*/postback-secret', 'apps/*/identity-secret', 'apps/*/unsubscribe-key', 'apps/*/vapid-private-key'],
      // The unsubscribe key of an application made before it existed, made on its first marketing mail.
      SendDeferred: ['apps/*/unsubscribe-key'],
      SendBroadcasts: ['apps/*/unsubscribe-key'],
      SendEmail: ['apps/*/unsubscribe-key'],
      SendTemplate: ['apps/*/unsubscribe-key'],
      RunJourneys: ['apps/*/unsubscribe-key'],
      JourneyTimers: ['apps/*/unsubscribe-key'],
    });
  });
});

/** The logical id of the API resource at a path such as `/profiles/{id}`, walking from the root. */
function resourceIdForPath(path: string): string {
  const resources = template.findResources('AWS::ApiGateway::Resource');
  let parent: unknown = { 'Fn::GetAtt': [logicalId(stack.ingestion.api), 'RootResourceId'] };
  let found = '';
  for (const part of path.split('/').filter(Boolean)) {
    const match = Object.entries(resources).find(
      ([, resource]) => resource.Properties.PathPart === part && JSON.stringify(resource.Properties.ParentId) === JSON.stringify(parent),
    );
    expect(match).toBeTruthy();
    found = match![0];
    parent = { Ref: found };
  }
  return found;
}

describe("the players' search index", () => {
  const onSearch = (fn: IConstruct & { role?: IConstruct }) =>
    allowedStatements(fn)
      .filter((statement) => [statement.Resource].flat().some((resource) => JSON.stringify(resource).includes(logicalId(stack.data.tables.playerSearch))))
      .flatMap(actionsOf)
      .filter((action) => action !== 'dynamodb:DescribeTable')
      .sort();

  test('is a table of its own keyed pk and sk, which the profile consumer only writes and the console only reads', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      TableName: Match.absent(),
    });
    expect(onSearch(stack.pipeline.consumers.ApplyProfiles!)).toEqual([
      'dynamodb:BatchWriteItem',
      'dynamodb:DeleteItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
    ]);
    expect(onSearch(stack.ingestion.operations.Console!)).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:ConditionCheckItem',
      'dynamodb:GetItem',
      'dynamodb:Query',
      'dynamodb:Scan',
    ]);
    const others = [...Object.entries(stack.pipeline.consumers), ...Object.entries(stack.ingestion.operations)].filter(
      ([id]) => id !== 'ApplyProfiles' && id !== 'Console',
    );
    expect(others.filter(([, fn]) => onSearch(fn).length > 0).map(([id]) => id)).toEqual([]);
  });
});
