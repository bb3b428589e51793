import { beforeAll, describe, expect, test } from '@jest/globals';
import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { accessLogPrefixes, cacheBustingParameter, PushCdn } from '../../lib/aws/constructs/push-cdn';
import { ensureSdkBuilt } from '../../web-sdk/build';
import { testApp } from '../support/cdk';

type Json = Record<string, any>;

let cdn: PushCdn;
let stack: Stack;
let template: Template;

// The construct alone, in a stack of its own: no function bundling, so this file synthesizes in a moment.
beforeAll(() => {
  ensureSdkBuilt(() => undefined);
  stack = new Stack(testApp(), 'PushCdnTest');
  cdn = new PushCdn(stack, 'PushCdn');
  template = Template.fromStack(stack);
});

const logicalId = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as Parameters<Stack['getLogicalId']>[0]);

describe('the SDK bucket', () => {
  test('is encrypted at rest', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
    });
  });

  test('blocks every kind of public access and ignores ACLs', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      WebsiteConfiguration: Match.absent(),
    });
  });

  test('lets only this distribution read it, through origin access control, and refuses plain HTTP', () => {
    const statements = Object.values(template.findResources('AWS::S3::BucketPolicy', { Properties: { Bucket: { Ref: logicalId(cdn.bucket) } } }))[0].Properties
      .PolicyDocument.Statement as Json[];

    const read = statements.find((statement) => statement.Effect === 'Allow');
    expect(read?.Principal).toEqual({ Service: 'cloudfront.amazonaws.com' });
    expect(read?.Action).toBe('s3:GetObject');
    expect(JSON.stringify(read?.Condition)).toMatch(new RegExp(logicalId(cdn.distribution)));
    expect(statements.some((statement) => statement.Effect === 'Deny' && statement.Condition?.Bool?.['aws:SecureTransport'] === 'false')).toBeTruthy();
  });
});

describe('the distribution', () => {
  test('reaches the bucket through an S3 origin access control that signs every request', () => {
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: { OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' },
    });
    const origin = template.findResources('AWS::CloudFront::Distribution')[logicalId(cdn.distribution)].Properties.DistributionConfig.Origins[0];
    expect(origin.OriginAccessControlId).toBeTruthy();
    expect(origin.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
  });

  test('serves HTTPS only (HTTP redirects), GET and HEAD, compressed', () => {
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Enabled: true,
        DefaultCacheBehavior: Match.objectLike({
          ViewerProtocolPolicy: 'redirect-to-https',
          AllowedMethods: ['GET', 'HEAD'],
          Compress: true,
        }),
      }),
    });
  });

  test(`keys its cache on the ${cacheBustingParameter} query parameter only, so a new date busts it`, () => {
    template.hasResourceProperties('AWS::CloudFront::CachePolicy', {
      CachePolicyConfig: Match.objectLike({
        ParametersInCacheKeyAndForwardedToOrigin: Match.objectLike({
          QueryStringsConfig: { QueryStringBehavior: 'whitelist', QueryStrings: [cacheBustingParameter] },
          CookiesConfig: { CookieBehavior: 'none' },
          HeadersConfig: { HeaderBehavior: 'none' },
        }),
      }),
    });
  });
});

describe('the deployment of web-sdk/dist', () => {
  // The SDK's own deployments; the API reference's are in api-docs.test.ts.
  const deployments = () =>
    Object.entries(template.findResources('Custom::CDKBucketDeployment'))
      .filter(([id]) => /PageScript|WorkerScript/.test(id))
      .map(([, resource]) => resource.Properties as Json);

  test('puts the page script and its versioned copy under js/ and the worker at the root, as application/javascript', () => {
    const byPrefix = Object.fromEntries(deployments().map((d) => [d.DestinationBucketKeyPrefix ?? '', d]));

    expect(Object.keys(byPrefix).sort()).toEqual(['', 'js/']);
    expect(byPrefix['js/'].Include).toEqual(['urm-notification*']);
    expect(byPrefix[''].Include).toEqual(['urmSDKWorker.js*']);
    for (const deployment of deployments()) {
      expect(deployment.Exclude).toEqual(['*']);
      expect(deployment.SystemMetadata['content-type']).toBe('application/javascript');
      expect(deployment.SystemMetadata['cache-control']).toBe('public, max-age=3600');
      expect(deployment.Prune).toBe(false);
      expect(JSON.stringify(deployment.DestinationBucketName)).toMatch(new RegExp(logicalId(cdn.bucket)));
    }
  });

  test('invalidates the distribution for the files it deployed', () => {
    const paths = deployments()
      .flatMap((deployment) => deployment.DistributionPaths as string[])
      .sort();

    expect(paths).toEqual(['/js/urm-notification*', '/urmSDKWorker.js*']);
    for (const deployment of deployments()) expect(deployment.DistributionId).toEqual({ Ref: logicalId(cdn.distribution) });
  });

  test('keeps its logs a month', () => {
    template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
  });
});

test('the CDN address is the distribution domain over HTTPS', () => {
  expect(stack.resolve(cdn.url)).toEqual({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalId(cdn.distribution), 'DomainName'] }]] });
});

describe('the access logs', () => {
  test('of the bucket and of the distribution go to a private, encrypted, TLS-only log bucket', () => {
    const logs = template.findResources('AWS::S3::Bucket')[logicalId(cdn.accessLogs)].Properties;
    const policy = Object.values(template.findResources('AWS::S3::BucketPolicy', { Properties: { Bucket: { Ref: logicalId(cdn.accessLogs) } } }))[0];

    expect(logs.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(logs.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe('AES256');
    expect(
      (policy.Properties.PolicyDocument.Statement as Json[]).some(
        (statement) => statement.Effect === 'Deny' && statement.Condition?.Bool?.['aws:SecureTransport'] === 'false',
      ),
    ).toBeTruthy();
    expect(template.findResources('AWS::S3::Bucket')[logicalId(cdn.bucket)].Properties.LoggingConfiguration).toEqual({
      DestinationBucketName: { Ref: logicalId(cdn.accessLogs) },
      LogFilePrefix: accessLogPrefixes.bucket,
    });
    const distribution = template.findResources('AWS::CloudFront::Distribution')[logicalId(cdn.distribution)].Properties.DistributionConfig;
    expect(distribution.Logging).toEqual({
      Bucket: { 'Fn::GetAtt': [logicalId(cdn.accessLogs), 'RegionalDomainName'] },
      Prefix: accessLogPrefixes.distribution,
    });
  });

  test('S3 may write only under its own prefix, and only for the SDK bucket of this account', () => {
    const statements = Object.values(template.findResources('AWS::S3::BucketPolicy', { Properties: { Bucket: { Ref: logicalId(cdn.accessLogs) } } }))[0]
      .Properties.PolicyDocument.Statement as Json[];

    const allowed = statements.filter((statement) => statement.Effect === 'Allow');
    expect(allowed.length).toBe(1);
    expect(allowed[0].Principal).toEqual({ Service: 'logging.s3.amazonaws.com' });
    expect(allowed[0].Action).toBe('s3:PutObject');
    expect(JSON.stringify(allowed[0].Resource)).toMatch(new RegExp(`"/${accessLogPrefixes.bucket}\\*"`));
    expect(allowed[0].Condition.ArnLike).toEqual({ 'aws:SourceArn': { 'Fn::GetAtt': [logicalId(cdn.bucket), 'Arn'] } });
  });

  test('are deleted after 90 days', () => {
    const logs = template.findResources('AWS::S3::Bucket')[logicalId(cdn.accessLogs)].Properties;

    expect(logs.LifecycleConfiguration.Rules.map((rule: Json) => [rule.Status, rule.ExpirationInDays])).toEqual([['Enabled', 90]]);
  });
});
