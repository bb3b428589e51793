/** The API reference on the CDN: what the deployments put in the bucket, and how CloudFront serves it. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { DOCS_PAGE, docsAssets, docsContentSecurityPolicy } from '../../lib/api-docs/site';
import { PushCdn } from '../../lib/aws/constructs/push-cdn';
import { httpOperations } from '../../functions/manifest/operations';
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
beforeAll(() => {
  ensureSdkBuilt(() => undefined);
  const app = testApp();
  stack = new Stack(app, 'ApiDocsTest');
  cdn = new PushCdn(stack, 'PushCdn', { apiUrl });
  template = Template.fromStack(stack);
  assemblyDir = app.synth().directory;
});

const logicalId = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as Parameters<Stack['getLogicalId']>[0]);

function deployment(id: string): Json {
  const found = Object.entries(template.findResources('Custom::CDKBucketDeployment')).filter(([logical]) => logical.includes(id));
  expect(found.length).toBe(1);
  return found[0][1].Properties as Json;
}

/** The files a deployment copies: its staged assets (`<hash>.zip` is staged as the directory `asset.<hash>`), by name. */
function deployedFiles(properties: Json): Map<string, string> {
  const files = new Map<string, string>();
  for (const key of properties.SourceObjectKeys as string[]) {
    const dir = join(assemblyDir, `asset.${key.replace(/\.zip$/, '')}`);
    for (const name of readdirSync(dir)) {
      expect(!files.has(name)).toBeTruthy();
      files.set(name, join(dir, name));
    }
  }
  return files;
}

describe('the OpenAPI document on the CDN', () => {
  test('is openapi.json at the root, never pruning the SDK beside it, and invalidated when deployed', () => {
    const document = deployment('ApiDocument');

    expect([...deployedFiles(document).keys()]).toEqual(['openapi.json']);
    expect(document.DestinationBucketKeyPrefix).toBe(undefined);
    expect(document.Prune).toBe(false);
    expect(document.DistributionPaths).toEqual(['/openapi.json']);
    expect(document.DistributionId).toEqual({ Ref: logicalId(cdn.distribution) });
    expect(document.SystemMetadata['cache-control']).toBe('public, max-age=3600');
  });

  test('is valid, lists every operation and names the deployed API as its server', async () => {
    const file = deployedFiles(deployment('ApiDocument')).get('openapi.json');
    const published = JSON.parse(readFileSync(file ?? '', 'utf8')) as { servers: unknown; paths: Record<string, Record<string, unknown>> };

    await validateOpenApiDocument(published);
    expect(published.servers).toEqual([{ url: apiUrl }]);
    for (const operation of httpOperations.filter((candidate) => !candidate.portalPage)) {
      expect(published.paths[operation.path]?.[operation.method.toLowerCase()]).toBeTruthy();
    }
  });
});

describe('the rendered reference on the CDN', () => {
  test('docs/ holds the page, its script and the renderer files it loads, nothing else, byte for byte', () => {
    const files = deployedFiles(deployment('ApiDocs'));

    expect([...files.keys()].sort()).toEqual([DOCS_PAGE, ...docsAssets.map((asset) => asset.name)].sort());
    for (const asset of docsAssets) {
      expect(readFileSync(files.get(asset.name) ?? '').equals(readFileSync(asset.file))).toBeTruthy();
    }
  });

  test('replaces docs/ as a whole on each deployment and invalidates it', () => {
    const docs = deployment('ApiDocs');

    expect(docs.DestinationBucketKeyPrefix).toBe('docs/');
    expect(docs.Prune).toBe(true);
    expect(docs.DistributionPaths).toEqual(['/docs/*']);
    expect(JSON.stringify(docs.DestinationBucketName)).toMatch(new RegExp(logicalId(cdn.bucket)));
  });

  test('the page offers no "Try it out" (the API answers CORS for browser keys only) and loads only files of docs/', () => {
    const page = readFileSync(deployedFiles(deployment('ApiDocs')).get(DOCS_PAGE) ?? '', 'utf8');

    expect(page).toMatch(/data-try-it-out="false"/);
    expect(page).toMatch(/data-document-url="\/openapi.json"/);
    for (const [, url] of page.matchAll(/(?:src|href)="([^"]+)"/g)) expect(url).toMatch(/^\/docs\/[\w.-]+$/);
  });

  test('docs/* is served over HTTPS under the same-origin Content-Security-Policy, never framed', () => {
    const behaviors = template.findResources('AWS::CloudFront::Distribution')[logicalId(cdn.distribution)].Properties.DistributionConfig
      .CacheBehaviors as Json[];
    const docs = behaviors.find((behavior) => behavior.PathPattern === 'docs/*');

    expect(docs).toBeTruthy();
    expect(docs!.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(docs!.AllowedMethods).toEqual(['GET', 'HEAD']);
    expect(docs!.TargetOriginId).toBe(
      template.findResources('AWS::CloudFront::Distribution')[logicalId(cdn.distribution)].Properties.DistributionConfig.Origins[0].Id,
    );
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: Match.objectLike({
          ContentSecurityPolicy: { ContentSecurityPolicy: docsContentSecurityPolicy, Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ContentTypeOptions: { Override: true },
        }),
      }),
    });
    expect(Object.keys(docs!.ResponseHeadersPolicyId)).toEqual(['Ref']);
  });

  test('the docs address is the page on the distribution', () => {
    expect(stack.resolve(cdn.docsUrl)).toEqual({
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalId(cdn.distribution), 'DomainName'] }, '/docs/index.html']],
    });
  });
});
