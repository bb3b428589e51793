/** The API reference on the CDN: what the deployments put in the bucket, and how CloudFront serves it. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { DOCS_PAGE, docsAssets, docsContentSecurityPolicy } from '../../lib/api-docs/site';
import { PushCdn } from '../../lib/aws/constructs/push-cdn';
import { httpOperations } from '../../functions/shared/manifest/operations';
import { validateOpenApiDocument } from '../../lib/api-docs/document';
import { ensureSdkBuilt } from '../../web-sdk/build';
import { testApp } from '../support/cdk';

type Json = Record<string, any>;

const apiUrl = 'https://api.example.test/prod/';
let cdn: PushCdn;
let stack: Stack;
let template: Template;
let assemblyDir: string;

// The construct alone, as in push-cdn.test.ts; synthesized to a cloud assembly whose staged assets the tests read.
before(() => {
  ensureSdkBuilt(() => undefined);
  const app = testApp();
  stack = new Stack(app, 'ApiDocsTest');
  cdn = new PushCdn(stack, 'PushCdn', { apiUrl });
  template = Template.fromStack(stack);
  assemblyDir = app.synth().directory;
});

const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as Parameters<Stack['getLogicalId']>[0]);

function deployment(id: string): Json {
  const found = Object.entries(template.findResources('Custom::CDKBucketDeployment')).filter(([logical]) => logical.includes(id));
  assert.equal(found.length, 1, `one ${id} deployment`);
  return found[0][1].Properties as Json;
}

/** The files a deployment copies: its staged assets (`<hash>.zip` is staged as the directory `asset.<hash>`), by name. */
function deployedFiles(properties: Json): Map<string, string> {
  const files = new Map<string, string>();
  for (const key of properties.SourceObjectKeys as string[]) {
    const dir = join(assemblyDir, `asset.${key.replace(/\.zip$/, '')}`);
    for (const name of readdirSync(dir)) {
      assert.ok(!files.has(name), `${name} comes from one source only`);
      files.set(name, join(dir, name));
    }
  }
  return files;
}

describe('the OpenAPI document on the CDN', () => {
  test('is openapi.json at the root, never pruning the SDK beside it, and invalidated when deployed', () => {
    const document = deployment('ApiDocument');

    assert.deepEqual([...deployedFiles(document).keys()], ['openapi.json']);
    assert.equal(document.DestinationBucketKeyPrefix, undefined);
    assert.equal(document.Prune, false);
    assert.deepEqual(document.DistributionPaths, ['/openapi.json']);
    assert.deepEqual(document.DistributionId, { Ref: logicalId(cdn.distribution) });
    assert.equal(document.SystemMetadata['cache-control'], 'public, max-age=3600');
  });

  test('is valid, lists every operation and names the deployed API as its server', async () => {
    const file = deployedFiles(deployment('ApiDocument')).get('openapi.json');
    const published = JSON.parse(readFileSync(file ?? '', 'utf8')) as { servers: unknown; paths: Record<string, Record<string, unknown>> };

    await validateOpenApiDocument(published);
    assert.deepEqual(published.servers, [{ url: apiUrl }]);
    for (const operation of httpOperations) {
      assert.ok(published.paths[operation.path]?.[operation.method.toLowerCase()], `${operation.method} ${operation.path}`);
    }
  });
});

describe('the rendered reference on the CDN', () => {
  test('docs/ holds the page, its script and the renderer files it loads, nothing else, byte for byte', () => {
    const files = deployedFiles(deployment('ApiDocs'));

    assert.deepEqual([...files.keys()].sort(), [DOCS_PAGE, ...docsAssets.map((asset) => asset.name)].sort());
    for (const asset of docsAssets) {
      assert.ok(readFileSync(files.get(asset.name) ?? '').equals(readFileSync(asset.file)), asset.name);
    }
  });

  test('replaces docs/ as a whole on each deployment and invalidates it', () => {
    const docs = deployment('ApiDocs');

    assert.equal(docs.DestinationBucketKeyPrefix, 'docs/');
    assert.equal(docs.Prune, true, 'pruning stays within docs/');
    assert.deepEqual(docs.DistributionPaths, ['/docs/*']);
    assert.match(JSON.stringify(docs.DestinationBucketName), new RegExp(logicalId(cdn.bucket)));
  });

  test('the page offers no "Try it out" (the API answers CORS for browser keys only) and loads only files of docs/', () => {
    const page = readFileSync(deployedFiles(deployment('ApiDocs')).get(DOCS_PAGE) ?? '', 'utf8');

    assert.match(page, /data-try-it-out="false"/);
    assert.match(page, /data-document-url="\/openapi.json"/);
    for (const [, url] of page.matchAll(/(?:src|href)="([^"]+)"/g)) assert.match(url, /^\/docs\/[\w.-]+$/);
  });

  test('docs/* is served over HTTPS under the same-origin Content-Security-Policy, never framed', () => {
    const behaviors = template.findResources('AWS::CloudFront::Distribution')[logicalId(cdn.distribution)].Properties.DistributionConfig
      .CacheBehaviors as Json[];
    const docs = behaviors.find((behavior) => behavior.PathPattern === 'docs/*');

    assert.ok(docs, 'a docs/* behavior');
    assert.equal(docs.ViewerProtocolPolicy, 'redirect-to-https');
    assert.deepEqual(docs.AllowedMethods, ['GET', 'HEAD']);
    assert.equal(docs.TargetOriginId, template.findResources('AWS::CloudFront::Distribution')[logicalId(cdn.distribution)].Properties.DistributionConfig.Origins[0].Id);
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: Match.objectLike({
          ContentSecurityPolicy: { ContentSecurityPolicy: docsContentSecurityPolicy, Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ContentTypeOptions: { Override: true },
        }),
      }),
    });
    assert.deepEqual(Object.keys(docs.ResponseHeadersPolicyId), ['Ref'], "the reference's own policy");
  });

  test('the docs address is the page on the distribution', () => {
    assert.deepEqual(stack.resolve(cdn.docsUrl), {
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalId(cdn.distribution), 'DomainName'] }, '/docs/index.html']],
    });
  });
});
