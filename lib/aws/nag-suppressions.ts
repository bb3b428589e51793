/**
 * The cdk-nag AwsSolutions findings the stack accepts, each on the construct
 * it concerns (never a whole rule for the whole stack) and with its reason.
 * What the stack does instead of suppressing (own function roles, exact index
 * grants, execution and access logs, throttling, the newest Node.js runtime)
 * is in the constructs; docs/architecture.md ("Security checks") lists both.
 * test/infra/cdk-nag.test.ts fails on any finding that is not suppressed here.
 */
import type { CfnElement, Stack } from 'aws-cdk-lib';
import type { Method } from 'aws-cdk-lib/aws-apigateway';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { NagSuppressions, type NagPackSuppression } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import {
  httpOperations,
  routedFunctions,
  scheduledFunctions,
  streamConsumers,
  type FunctionDefinition,
  type HttpOperation,
  keyAuthenticated,
} from '../../functions/manifest/operations';
import { gatewayResources, resourcePath } from '../../functions/manifest/routes';
import { secretsPrefix } from '../../functions/manifest/secrets';
import type { EventPipeline } from './constructs/event-pipeline';
import type { IngestionApi } from './constructs/ingestion-api';
import type { ScheduledWork } from './constructs/scheduled-work';
import type { PushCdn } from './constructs/push-cdn';

/** What the suppressions reach in the urm stack: UrmStack has it, and passes itself (an interface, not an import of UrmStack, so the two modules form no cycle). */
export interface UrmStackParts extends Stack {
  readonly pipeline: EventPipeline;
  readonly ingestion: IngestionApi;
  readonly pushCdn: PushCdn;
  readonly scheduled: ScheduledWork;
}

/** Every suppression of the stack. Called once, at the end of UrmStack's constructor. */
export function suppressAcceptedFindings(stack: UrmStackParts): void {
  suppressApiFindings(stack);
  suppressFunctionFindings(stack);
  suppressCdnFindings(stack);
  suppressCdkProvidedFindings(stack);
  suppress(stack.pipeline.failureQueue, [
    {
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is the dead-letter destination itself: the stream consumers send a batch here (its shard and ' +
        'sequence-number range) after bounded retries, and operators replay from the stream. Nothing consumes it ' +
        'automatically, so a further DLQ would never receive anything.',
    },
  ]);
}

/** How each browser UI's routed function authenticates its callers, route by route. */
const routedAuthorization: Record<string, string> = {
  EnterprisePortal:
    'GET /redirect is opened by a browser with a one-time sign-in token (from POST /enterprises/sign_in, stored as a ' +
    'SHA-256, expiring, spent on first use) as its credential, and a session is made only for a valid token; GET /portal ' +
    "only redirects to the console and reads nothing; any other address or method gets the router's 404.",
  AffiliatePortal:
    'Its pages are for affiliates in a browser. The sign-in, password-reset and reset-request pages are public forms ' +
    'that return no data. Signing in takes the username or email and password (scrypt) behind a CSRF token bound to a ' +
    'pre-session cookie and a lockout per account and per client address; only then is a session made (random, stored ' +
    "as a SHA-256, idle and absolute expiry, HttpOnly, SameSite=Lax cookie scoped to the application's portal). A reset " +
    'request mails a single-use link to the address of an affiliate who has it and answers the same page either way ' +
    '(mails per address limited); the reset token (stored as a SHA-256, expiring in an hour, spent on use) is the ' +
    "credential of the new-password form. Every other page needs that session and shows or changes only its affiliate's " +
    "own figures, links (landing URLs on the application's own site origins only) and postback settings (https to a " +
    "public host); every form post needs the session's CSRF token, and sign-out ends only the session of its cookie. " +
    "Any other address or method gets the router's 404.",
  // The back-office console's API (functions/console, its checks functions/http/console-auth.ts).
  Console:
    'Its credential is the enterprise portal session cookie (random, stored as a SHA-256, idle and absolute expiry, ' +
    "HttpOnly, SameSite=Lax) and the user's role in the session's application, checked on every call; state-changing " +
    "calls also need the session's X-CSRF-Token. It reaches only the session's application; any other address or method " +
    "gets the router's 404.",
};

/** How an operation authenticates its caller: API Gateway does not, every function does it first. */
function authorization(operation: HttpOperation): string {
  if (keyAuthenticated(operation)) {
    return (
      'It checks the x-api-key itself before parsing anything (functions/http/auth.ts): the key is hashed and ' +
      "looked up in the keys table, must be live and of the operation's scope, and an app_id in the request must be " +
      "the key's application; every refusal is the same 403. Keys are per application and scope and revocable."
    );
  }
  const keyless: Record<string, string> = {
    TrackClick:
      'It is a public tracking link that anyone may follow, by design: it only redirects to the landing URL stored ' +
      "with the link (on one of the application's own site origins), reads nothing back to the caller, and writes at " +
      'most one click claim and one stream record per visitor and link per day; an unknown link id writes nothing.',
  };
  const reason = keyless[operation.id];
  if (!reason) throw new Error(`${operation.id} takes no API key: say in lib/aws/nag-suppressions.ts how it authenticates its caller`);
  return reason;
}

const preflight =
  'A CORS preflight (OPTIONS) carries no credentials by the Fetch standard, so no authorizer could check one; the ' +
  "function answers it from the application's configured site origins and returns no data.";

function suppressApiFindings(stack: UrmStackParts): void {
  const api = stack.ingestion.api;
  for (const method of api.methods) {
    const { path, how } = ownerOf(method);
    suppress(method, [
      { id: 'AwsSolutions-APIG4', reason: `No API Gateway authorizer on ${method.httpMethod} ${path}. ${how}` },
      {
        id: 'AwsSolutions-COG4',
        reason:
          `No Cognito user pool on ${method.httpMethod} ${path}: its callers are integrators' servers and ` +
          `browsers with an application's API key, or portal users with a token or session, none a Cognito user. ${how}`,
      },
    ]);
  }
  suppress(api, [
    {
      id: 'AwsSolutions-APIG2',
      reason:
        'Each function validates its whole request (headers, bounded body, query) with the ajv JSON Schema the ' +
        'OpenAPI document is generated from, right after the key check. API Gateway models are JSON Schema draft 4 ' +
        'and its own 400 body would break the documented error shapes (e.g. {"errors": [...]} of register_affiliate).',
    },
  ]);
  suppress(api.deploymentStage, [
    {
      id: 'AwsSolutions-APIG3',
      reason:
        'No WAF web ACL: it is billed per request on a high-volume ingestion API, while abuse is met by stage and ' +
        'per-operation throttling (lib/aws/constructs/ingestion-api.ts) and a key check before any work (a refused ' +
        'request costs one hash and at most one read). A web ACL can be associated with the stage without code changes.',
    },
  ]);
  // `cloudWatchRole: true`: the account's one role through which API Gateway writes logs.
  const cloudWatchRole = api.node.tryFindChild('CloudWatchRole');
  if (cloudWatchRole) {
    suppress(cloudWatchRole, [
      {
        id: 'AwsSolutions-IAM4',
        reason:
          'The account-wide role API Gateway writes access and execution logs with (AWS::ApiGateway::Account). It ' +
          'serves every API of the account and region, whose log groups are not known here; the managed policy is ' +
          'the one AWS documents for it.',
        appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs'],
      },
    ]);
  }
}

/** The operation or routed function a method of the API reaches, and how it authenticates its caller. */
function ownerOf(method: Method): { path: string; how: string } {
  const path = method.resource.path;
  const routed = routedFunctions.find(
    (candidate) => gatewayResources(candidate).includes(path) || candidate.routes.some((route) => resourcePath(route.path) === path),
  );
  if (routed) {
    const how = routedAuthorization[routed.id];
    if (!how) throw new Error(`${routed.id} takes no API key: say in lib/aws/nag-suppressions.ts how it authenticates its callers`);
    return { path, how };
  }
  const operation = httpOperations.find(
    (candidate) =>
      // A path ending in / (the affiliate portal's home) is the resource without it: API Gateway resources have no trailing slash.
      resourcePath(candidate.path) === path && (candidate.method === method.httpMethod || (method.httpMethod === 'OPTIONS' && candidate.browser)),
  );
  if (!operation) throw new Error(`API method ${method.httpMethod} ${path} is no operation of functions/manifest/operations.ts`);
  return { path: operation.path, how: method.httpMethod === 'OPTIONS' ? preflight : authorization(operation) };
}

function suppressFunctionFindings(stack: UrmStackParts): void {
  // No SES finding to accept: send_email's grant names its identities, never identity/* (lib/aws/constructs/email.ts).
  const parameterArn = (pattern: string) =>
    `Resource::arn:<AWS::Partition>:ssm:<AWS::Region>:<AWS::AccountId>:parameter${secretsPrefix(stack.stackName)}/${pattern}`;
  const touchesSecrets = (definition: FunctionDefinition) => Boolean(definition.secretReads || definition.secretChecks || definition.secretWrites);
  const functions: [FunctionDefinition, IConstruct][] = [
    ...[...httpOperations, ...routedFunctions]
      .filter(touchesSecrets)
      .map((definition): [FunctionDefinition, IConstruct] => [definition, roleOf(stack, definition)]),
    ...scheduledFunctions.filter(touchesSecrets).map((definition): [FunctionDefinition, IConstruct] => [definition, scheduledRoleOf(stack, definition)]),
    ...streamConsumers.filter(touchesSecrets).map((definition): [FunctionDefinition, IConstruct] => [definition, consumerRoleOf(stack, definition)]),
  ];
  for (const [definition, role] of functions) {
    const { secretReads: reads = [], secretChecks: checks = [], secretWrites: writes = [] } = definition;
    const reasons = [
      reads.length > 0 &&
        `ssm:GetParameter only on the kinds of secret it uses (${reads.join(', ')}), never the whole secrets path: ` +
          'one parameter per application or affiliate, made by the console, the affiliate portal or the admin command ' +
          'line as they are added, so the names are not known at deployment; no pattern admits another kind of secret.',
      checks.length > 0 &&
        'ssm:DescribeParameters on "*": IAM has no resource-level permission for that action (AWS\'s Parameter Store ' +
          'guide grants it on "*"). It answers names and metadata, never a value; the function asks it, filtered by one ' +
          `exact name of the kinds it checks (${checks.join(', ')}), whether a secret exists. It could list the names ` +
          "of the account's other parameters in the region, never read them.",
      writes.length > 0 &&
        `ssm:PutParameter only on the names of the kinds of secret it makes (${writes.join(', ')}): one parameter per ` +
          'application or affiliate (a postback signing secret, a VAPID private key, an identity secret), named by the ' +
          'session, not the request, so the names are not known at deployment.',
    ].filter((reason): reason is string => typeof reason === 'string');
    suppress(
      role,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: reasons.join(' '),
          appliesTo: [...new Set([...reads, ...writes])].map(parameterArn).concat(checks.length > 0 ? ['Resource::*'] : []),
        },
      ],
      true,
    );
  }
}

/** The role of an operation's function: its policies carry the grants. */
function roleOf(stack: UrmStackParts, operation: FunctionDefinition): IConstruct {
  const role = stack.ingestion.operations[operation.id].role;
  if (!role) throw new Error(`${operation.id} has no role`);
  return role;
}

/** The role of a scheduled function. */
function consumerRoleOf(stack: UrmStackParts, definition: FunctionDefinition): IConstruct {
  const role = stack.pipeline.consumers[definition.id].role;
  if (!role) throw new Error(`${definition.id} has no role`);
  return role;
}

function scheduledRoleOf(stack: UrmStackParts, definition: FunctionDefinition): IConstruct {
  const role = stack.scheduled.functions[definition.id].role;
  if (!role) throw new Error(`${definition.id} has no role`);
  return role;
}

function suppressCdnFindings(stack: UrmStackParts): void {
  const cdn = stack.pushCdn;
  suppress(cdn.distribution, [
    {
      id: 'AwsSolutions-CFR1',
      reason: "No geo restriction: the SDK and the API reference are public files for any site's visitors, wherever they are.",
    },
    {
      id: 'AwsSolutions-CFR2',
      reason:
        'No WAF web ACL: the distribution serves public static files from a private bucket, with no origin compute ' +
        'or data to protect; CloudFront absorbs floods (Shield Standard). A web ACL can be attached (webAclId) if needed.',
    },
    {
      id: 'AwsSolutions-CFR4',
      reason:
        "The distribution uses CloudFront's default *.cloudfront.net certificate, whose security policy cannot be set " +
        '(TLSv1 is allowed by CloudFront for it). A custom domain with an ACM certificate would set TLSv1.2_2021.',
    },
  ]);
  suppress(cdn.accessLogs, [
    {
      id: 'AwsSolutions-S1',
      reason: 'It is the access-log bucket: logging its own accesses into itself would log every log delivery.',
    },
  ]);
}

/** The singleton functions CDK adds for BucketDeployment (one per memory size), at the stack's root. */
function bucketDeploymentHandlers(stack: Stack): IConstruct[] {
  return stack.node.children.filter((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'));
}

function suppressCdkProvidedFindings(stack: UrmStackParts): void {
  // The buckets of this stack a deployment may write to: CDK grants its handler objects `<bucket>/*` of each.
  const buckets = stack.node.findAll().filter((construct): construct is Bucket => construct instanceof Bucket);
  const bucketObjects = buckets.map((bucket) => `Resource::<${stack.getLogicalId(bucket.node.defaultChild as CfnElement)}.Arn>/*`);
  for (const handler of bucketDeploymentHandlers(stack)) {
    suppress(
      handler,
      [
        {
          id: 'AwsSolutions-IAM4',
          reason: "CDK's BucketDeployment handler (aws-s3-deployment): its role and policies are CDK's, not ours to change.",
          appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole'],
        },
        {
          id: 'AwsSolutions-IAM5',
          reason:
            "CDK's BucketDeployment handler copies the asset from the CDK assets bucket into the destination bucket " +
            '(object wildcards of both, s3 action groups CDK grants) and invalidates the CloudFront paths it deployed ' +
            '(CloudFront invalidation is granted on "*" by CDK). It runs only during deployments.',
          appliesTo: [
            'Action::s3:GetObject*',
            'Action::s3:GetBucket*',
            'Action::s3:List*',
            'Action::s3:DeleteObject*',
            'Action::s3:Abort*',
            'Resource::*',
            { regex: '/^Resource::arn:<AWS::Partition>:s3:::cdk-[a-z0-9]+-assets-<AWS::AccountId>-<AWS::Region>\\/\\*$/' },
            ...bucketObjects,
          ],
        },
        {
          id: 'AwsSolutions-L1',
          reason: "CDK's BucketDeployment handler: CDK chooses its Python runtime and moves it with aws-cdk-lib upgrades.",
        },
      ],
      true,
    );
  }
}

function suppress(construct: IConstruct, suppressions: NagPackSuppression[], applyToChildren = false): void {
  NagSuppressions.addResourceSuppressions(construct, suppressions, applyToChildren);
}
