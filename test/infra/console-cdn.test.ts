/**
 * The back-office console on the CDN (lib/aws/constructs/push-cdn.ts): its
 * files deployed under console/, SPA routes rewritten to the page, its
 * Content-Security-Policy, and the API paths the browser needs forwarded to
 * the API stage on the same origin (so the session cookie is first-party).
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { consoleApiPaths, consoleRewriteCode, PushCdn } from '../../lib/aws/constructs/push-cdn';
import { consoleContentSecurityPolicy, consoleDistDir, ensureConsoleBuilt } from '../../lib/console/build';
import { ensureSdkBuilt } from '../../web-sdk/build';
import { testApp } from '../support/cdk';

type Json = Record<string, any>;

const apiHost = 'abc123.execute-api.eu-west-1.amazonaws.com';
// CloudFront's managed policies, by their fixed ids.
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

let template: Template;
let config: Json;

beforeAll(() => {
  ensureSdkBuilt(() => undefined);
  ensureConsoleBuilt(() => undefined);
  const stack = new Stack(testApp(), 'ConsoleCdnTest');
  new PushCdn(stack, 'PushCdn', { apiOrigin: { domainName: apiHost, stagePath: '/v1' } });
  template = Template.fromStack(stack);
  config = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0].Properties.DistributionConfig;
});

const behavior = (pattern: string) => (config.CacheBehaviors as Json[]).find((b) => b.PathPattern === pattern);
const originOf = (b: Json) => (config.Origins as Json[]).find((o) => o.Id === b.TargetOriginId);

describe('the API paths on the CDN', () => {
  test.each(consoleApiPaths.map((path) => path.slice(1)))('%s goes to the API stage, uncached, with every method, cookies and query', (pattern) => {
    const b = behavior(pattern);

    expect(b).toBeDefined();
    expect(originOf(b!)).toMatchObject({ DomainName: apiHost, OriginPath: '/v1', CustomOriginConfig: { OriginProtocolPolicy: 'https-only' } });
    expect(b).toMatchObject({ CachePolicyId: CACHING_DISABLED, OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER, ViewerProtocolPolicy: 'https-only' });
    expect(b!.AllowedMethods).toEqual(expect.arrayContaining(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']));
  });

  test('the console API is matched before the console pages (CloudFront takes the first match)', () => {
    const patterns = (config.CacheBehaviors as Json[]).map((b) => b.PathPattern);

    expect(patterns.indexOf('console/api/*')).toBeGreaterThanOrEqual(0);
    expect(patterns.indexOf('console/api/*')).toBeLessThan(patterns.indexOf('console*'));
  });
});

describe('the console pages on the CDN', () => {
  test('are served from the bucket with the console content security policy, without unsafe-inline', () => {
    const b = behavior('console*')!;
    const policies = template.findResources('AWS::CloudFront::ResponseHeadersPolicy');
    const [, policy] = Object.entries(policies).find(([id]) => b.ResponseHeadersPolicyId.Ref === id)!;
    const headers = policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;

    expect(originOf(b)?.S3OriginConfig).toBeDefined();
    expect(headers.ContentSecurityPolicy).toEqual({ ContentSecurityPolicy: consoleContentSecurityPolicy, Override: true });
    expect(consoleContentSecurityPolicy).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(consoleContentSecurityPolicy).toMatch(/script-src 'self'/);
    expect(headers.ContentTypeOptions).toEqual({ Override: true });
    expect(headers.ReferrerPolicy).toEqual({ ReferrerPolicy: 'same-origin', Override: true });
    expect(headers.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
  });

  test('rewrite every route but the assets to console/index.html, in a viewer-request function', () => {
    const b = behavior('console*')!;
    template.hasResourceProperties('AWS::CloudFront::Function', {
      FunctionCode: consoleRewriteCode,
      FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }),
    });
    expect(b.FunctionAssociations).toEqual([expect.objectContaining({ EventType: 'viewer-request' })]);

    const rewrite = (uri: string) => runInNewContext(`${consoleRewriteCode}; handler({ request: { uri: ${JSON.stringify(uri)} } }).uri`) as string;
    expect(rewrite('/console/')).toBe('/console/index.html');
    expect(rewrite('/console/players/player-42')).toBe('/console/index.html');
    expect(rewrite('/console/assets/console-ABC123.js')).toBe('/console/assets/console-ABC123.js');
  });

  test('deploy the built page (no-cache) and its hashed assets (a year, immutable) under console/', () => {
    const deployments = Object.values(template.findResources('Custom::CDKBucketDeployment')).map((r) => r.Properties as Json);
    const page = deployments.find((d) => d.DestinationBucketKeyPrefix === 'console/' && JSON.stringify(d.Include) === '["index.html"]');
    const assets = deployments.find((d) => d.DestinationBucketKeyPrefix === 'console/' && JSON.stringify(d.Include) === '["assets/*"]');

    expect(page?.SystemMetadata).toEqual({ 'cache-control': 'no-cache' });
    expect(page?.DistributionPaths).toEqual(['/console/*']);
    expect(assets?.SystemMetadata).toEqual({ 'cache-control': 'public, max-age=31536000, immutable' });
    // What the asset holds: the page and every file it names (the shell, its stylesheet, the chunks it preloads);
    // the pages' lazy chunks are under assets/ too, which the deployment takes whole.
    const html = readFileSync(join(consoleDistDir, 'index.html'), 'utf8');
    const named = [...html.matchAll(/\/console\/(assets\/[\w.-]+)/g)].map((m) => m[1]!);
    // Sorted by extension: the names' hashes would otherwise decide the order.
    const byExtension = (file: string) => file.slice(file.lastIndexOf('.'));
    expect(named.filter((file) => /^assets\/console-\w+\.(js|css)$/.test(file)).sort((a, b) => byExtension(a).localeCompare(byExtension(b)))).toEqual([
      expect.stringMatching(/\.css$/),
      expect.stringMatching(/\.js$/),
    ]);
    expect(named.filter((file) => !/^assets\/(console|chunk)-\w+\.(js|css)$/.test(file))).toEqual([]);
    for (const file of named) expect(existsSync(join(consoleDistDir, file))).toBe(true);
  });
});
