import { beforeAll, describe, expect, test } from '@jest/globals';
import type { CfnElement } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { eventFunctions, httpOperations, routedFunctions, scheduledFunctions, streamConsumers } from '../../functions/manifest/operations';
import { emailSending } from '../../functions/manifest/resources';
import { UrmStack } from '../../lib/aws/urm-stack';
import { roleStatements, testApp } from '../support/cdk';

type Json = Record<string, unknown>;
interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
}

// The domain and identities come from context here; a developer's own settings must not change what is tested.
delete process.env.URM_EMAIL_DOMAIN;
delete process.env.URM_EMAIL_IDENTITIES;

/** A stack without bundling: these assertions are about SES and IAM, not the function code. */
function synthesize(context: Json = {}): { stack: UrmStack; template: Template } {
  const stack = new UrmStack(testApp({ bundle: false, context }), 'UrmEmailTest');
  return { stack, template: Template.fromStack(stack) };
}

const logicalId = (stack: UrmStack, construct: IConstruct) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
const ref = (stack: UrmStack, construct: IConstruct) => ({ Ref: logicalId(stack, construct) });

/** `arn:<partition>:ses:<region>:<account>:<resource>`, as Stack.formatArn writes it. */
const sesArn = (resource: unknown[]) => ({
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ...resource]],
});

/** The SES statements of the policies attached to a function's role. */
function sesStatements(stack: UrmStack, template: Template, fn: IConstruct & { role?: IConstruct }): Statement[] {
  expect(fn.role).toBeDefined();
  return (
    (roleStatements(template, logicalId(stack, fn.role!)) as Statement[])
      .filter((statement) => [statement.Action].flat().some((action) => action.startsWith('ses:')))
      // minimizePolicies orders resources its own way.
      .map((statement) => ({ ...statement, Resource: sorted([statement.Resource].flat()) }))
  );
}

const sorted = (values: unknown[]) => [...values].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

const httpFunctions = [...httpOperations, ...routedFunctions];
const senders = httpFunctions.filter((definition) => definition.email === 'send');

describe('email, without a sender domain', () => {
  let stack: UrmStack;
  let template: Template;
  beforeAll(() => {
    ({ stack, template } = synthesize());
  });

  test('send_email, send_template, the affiliate portal (its password reset) and the console (its email to a player) are the functions that send', () => {
    expect(senders.map((definition) => definition.id).sort()).toEqual(['AffiliatePortal', 'Console', 'SendEmail', 'SendTemplate']);
  });

  test('every message goes through a configuration set that requires TLS and suppresses bounces and complaints', () => {
    template.resourceCountIs('AWS::SES::ConfigurationSet', 1);
    template.hasResourceProperties('AWS::SES::ConfigurationSet', {
      DeliveryOptions: { TlsPolicy: 'REQUIRE' },
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
      ReputationOptions: { ReputationMetricsEnabled: true },
      SendingOptions: { SendingEnabled: true },
    });
    template.hasOutput('EmailConfigurationSetName', { Value: ref(stack, stack.email.configurationSet) });
  });

  test('creates no identity and outputs no DNS records', () => {
    template.resourceCountIs('AWS::SES::EmailIdentity', 0);
    expect(Object.keys(template.findOutputs('EmailDkimRecord*'))).toEqual([]);
  });

  test('the send_email function learns the configuration set by its variable', () => {
    const fn = stack.ingestion.operations.SendEmail;
    const variables = template.findResources('AWS::Lambda::Function')[logicalId(stack, fn)].Properties.Environment.Variables;

    expect(variables[emailSending.configurationSetEnvVar]).toEqual(ref(stack, stack.email.configurationSet));
  });

  test('the send_email function may not use SES at all: no identity of the account is its to send from', () => {
    const statements = sesStatements(stack, template, stack.ingestion.operations.SendEmail);

    expect(statements).toEqual([]);
  });

  test('the synthesis warns that nothing can be sent, and says what to set', () => {
    const warnings = Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('send no email'));

    expect(warnings.map((warning) => String(warning.entry.data))).toEqual([expect.stringMatching(/URM_EMAIL_DOMAIN .* URM_EMAIL_IDENTITIES/)]);
  });

  test("the campaigns' senders (the journeys' consumer and timers, the broadcast sender) and the deferred sender learn the configuration set", () => {
    const functions = template.findResources('AWS::Lambda::Function');
    const campaignSenders = [
      ...streamConsumers.filter((consumer) => consumer.email === 'send').map((consumer) => stack.pipeline.consumers[consumer.id]),
      ...scheduledFunctions.filter((definition) => definition.email === 'send').map((definition) => stack.scheduled.functions[definition.id]),
    ];

    expect(streamConsumers.filter((consumer) => consumer.email === 'send').map((consumer) => consumer.id)).toEqual(['RunJourneys']);
    expect(
      scheduledFunctions
        .filter((definition) => definition.email === 'send')
        .map((definition) => definition.id)
        .sort(),
    ).toEqual(['JourneyTimers', 'SendBroadcasts', 'SendDeferred']);
    for (const fn of campaignSenders) {
      expect(functions[logicalId(stack, fn)].Properties.Environment.Variables[emailSending.configurationSetEnvVar]).toEqual(
        ref(stack, stack.email.configurationSet),
      );
    }
  });

  test('no other function may use SES or learns the configuration set', () => {
    const others = [
      ...httpFunctions.filter((definition) => definition.email !== 'send').map((definition) => stack.ingestion.operations[definition.id]),
      ...streamConsumers.filter((consumer) => consumer.email !== 'send').map((consumer) => stack.pipeline.consumers[consumer.id]),
      ...eventFunctions.map((definition) => stack.events.functions[definition.id]),
    ];
    const functions = template.findResources('AWS::Lambda::Function');

    for (const fn of others) {
      expect(sesStatements(stack, template, fn)).toEqual([]);
      expect(functions[logicalId(stack, fn)].Properties.Environment.Variables[emailSending.configurationSetEnvVar]).toBe(undefined);
    }
  });
});

describe("SES's bounces, complaints and deliveries", () => {
  let stack: UrmStack;
  let template: Template;
  beforeAll(() => {
    ({ stack, template } = synthesize());
  });

  test('the configuration set publishes bounces, complaints, deliveries, opens and clicks to the default bus', () => {
    template.resourceCountIs('AWS::SES::ConfigurationSetEventDestination', 1);
    template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      ConfigurationSetName: ref(stack, stack.email.configurationSet),
      EventDestination: {
        Enabled: true,
        MatchingEventTypes: Match.arrayEquals(['bounce', 'complaint', 'delivery', 'open', 'click']),
        EventBridgeDestination: {
          EventBusArn: {
            'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':events:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':event-bus/default']],
          },
        },
      },
    });
  });

  test("a rule takes those events of this stack's configuration set only, to the email-events function", () => {
    const fn = stack.events.functions.EmailEvents;

    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['aws.ses'],
        'detail-type': ['Email Bounced', 'Email Complained', 'Email Delivered', 'Email Opened', 'Email Clicked'],
        detail: { mail: { tags: { 'ses:configuration-set': [ref(stack, stack.email.configurationSet)] } } },
      },
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [logicalId(stack, fn), 'Arn'] } })],
    });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [logicalId(stack, fn), 'Arn'] },
      SourceArn: { 'Fn::GetAtt': [logicalId(stack, stack.events.rules.EmailEvents), 'Arn'] },
    });
  });

  test('the function may write to the stream and its log group, and nothing else', () => {
    const fn = stack.events.functions.EmailEvents;
    const statements = roleStatements(template, logicalId(stack, fn.role!)) as Statement[];

    expect(statements.map((statement) => [statement.Action].flat().sort())).toEqual([
      ['logs:CreateLogStream', 'logs:PutLogEvents'],
      ['kinesis:PutRecord', 'kinesis:PutRecords'],
    ]);
  });
});

describe('email, with a sender domain', () => {
  let stack: UrmStack;
  let template: Template;
  beforeAll(() => {
    ({ stack, template } = synthesize({ 'urm:emailDomain': 'mail.example.com' }));
  });

  test('creates the domain identity with Easy DKIM, sending through the configuration set', () => {
    template.resourceCountIs('AWS::SES::EmailIdentity', 1);
    template.hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: 'mail.example.com',
      DkimAttributes: { SigningEnabled: true },
      ConfigurationSetAttributes: { ConfigurationSetName: ref(stack, stack.email.configurationSet) },
    });
  });

  test('outputs the three CNAME records that verify the domain', () => {
    const identity = logicalId(stack, stack.email.identity!);
    for (const i of [1, 2, 3]) {
      template.hasOutput(`EmailDkimRecord${i}`, {
        Value: {
          'Fn::Join': ['', [{ 'Fn::GetAtt': [identity, `DkimDNSTokenName${i}`] }, ' CNAME ', { 'Fn::GetAtt': [identity, `DkimDNSTokenValue${i}`] }]],
        },
      });
    }
  });

  test('the send_email function may send only from that identity, only as an address at the domain, through the configuration set', () => {
    const statements = sesStatements(stack, template, stack.ingestion.operations.SendEmail);

    expect(statements).toEqual([
      {
        Effect: 'Allow',
        Action: 'ses:SendEmail',
        Resource: sorted([
          sesArn([':identity/', ref(stack, stack.email.identity!)]),
          sesArn([':configuration-set/', ref(stack, stack.email.configurationSet)]),
        ]),
        Condition: { StringLike: { 'ses:FromAddress': '*@mail.example.com' } },
      },
    ]);
  });

  test('the sender condition is in lower case, the form send_email sends: SES matches it case-sensitively', () => {
    const capitals = synthesize({ 'urm:emailDomain': 'Mail.Example.COM' });

    const [statement] = sesStatements(capitals.stack, capitals.template, capitals.stack.ingestion.operations.SendEmail);

    expect(statement.Condition).toEqual({ StringLike: { 'ses:FromAddress': '*@mail.example.com' } });
  });

  test('warns of nothing', () => {
    expect(Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('send no email'))).toEqual([]);
  });

  test('a domain that is not a domain name stops the synthesis with a clear message', () => {
    expect(() => synthesize({ 'urm:emailDomain': 'https://mail.example.com' })).toThrow(/email domain must be a domain name/);
  });
});

describe('email, with identities verified outside the stack', () => {
  let stack: UrmStack;
  let template: Template;
  beforeAll(() => {
    ({ stack, template } = synthesize({ 'urm:emailIdentities': 'example.org, News@Example.NET' }));
  });

  test('creates no identity', () => {
    template.resourceCountIs('AWS::SES::EmailIdentity', 0);
  });

  test('the send_email function may send from those identities only, only as their addresses, through the configuration set', () => {
    const statements = sesStatements(stack, template, stack.ingestion.operations.SendEmail);

    expect(statements).toEqual([
      {
        Effect: 'Allow',
        Action: 'ses:SendEmail',
        Resource: sorted([
          sesArn([':identity/example.org']),
          // The identity as it was verified; the condition in the form send_email sends.
          sesArn([':identity/News@Example.NET']),
          sesArn([':configuration-set/', ref(stack, stack.email.configurationSet)]),
        ]),
        Condition: { StringLike: { 'ses:FromAddress': ['*@example.org', 'News@example.net'] } },
      },
    ]);
  });

  test('adds them to a stack domain, whose identity the stack creates', () => {
    const both = synthesize({ 'urm:emailDomain': 'mail.example.com', 'urm:emailIdentities': 'example.org' });

    const [statement] = sesStatements(both.stack, both.template, both.stack.ingestion.operations.SendEmail);

    expect(statement.Condition).toEqual({ StringLike: { 'ses:FromAddress': ['*@mail.example.com', '*@example.org'] } });
  });

  test('an identity that is neither a domain nor an address stops the synthesis with a clear message', () => {
    expect(() => synthesize({ 'urm:emailIdentities': 'example.org,*' })).toThrow(/email identities must be domains or addresses/);
    expect(() => synthesize({ 'urm:emailIdentities': 'Ann <ann@example.org>' })).toThrow(/email identities must be domains or addresses/);
  });
});
