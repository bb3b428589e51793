/**
 * The CDN of the browser push client (docs/api.md, "CDN and files"): a private, encrypted S3
 * bucket that only CloudFront can read (origin access control), holding
 * web-sdk/dist as `{cdn_url}/js/urm-notification.js` (and its versioned copy)
 * and `{cdn_url}/urmSDKWorker.js`, served as application/javascript. The
 * `date` query parameter pages add is part of the cache key, so a new date
 * fetches a fresh copy.
 *
 * It also publishes the API reference (lib/api-docs/site.ts):
 * `{cdn_url}/openapi.json`, its `servers` the deployed API, and Swagger UI at
 * `{cdn_url}/docs/index.html`, served with a same-origin-only
 * Content-Security-Policy. Synthesis validates the document first.
 *
 * And the back-office console (lib/console/build.ts): `{cdn_url}/console/`
 * and every `/console/<route>` answer `console/index.html` (a CloudFront
 * Function rewrites the route), `/console/assets/<hashed>` the built files,
 * cached for a year; all with the console's Content-Security-Policy. The API
 * paths the browser needs, `/console/api/*`, `/redirect` and `/portal*`, go to
 * the API Gateway stage on the same origin, uncached, so the session cookie
 * is first-party: an application's portal origin is this distribution's URL.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  CacheCookieBehavior,
  CacheHeaderBehavior,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  OriginRequestPolicy,
  type BehaviorOptions,
  CacheQueryStringBehavior,
  Distribution,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  PriceClass,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type BucketProps } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { readFileSync } from 'node:fs';
import { distDir, ensureSdkBuilt, PAGE_SCRIPT, WORKER_SCRIPT } from '../../../web-sdk/build';
import { CONSOLE_ASSETS_PREFIX, CONSOLE_INDEX, CONSOLE_PREFIX, consoleContentSecurityPolicy, consoleDistDir, ensureConsoleBuilt } from '../../console/build';
import { DOCS_PAGE, DOCS_PREFIX, docsContentSecurityPolicy, docsPage, DOCUMENT_PATH, pageScript, rendererFiles, swaggerUiDir } from '../../api-docs/site';
import { validateOpenApiDocumentSync } from '../../api-docs/validate-sync';
import { buildOpenApiDocument } from '../../api-docs/document';

export interface PushCdnProps {
  /** The built SDK; by default web-sdk/dist, built here when missing or stale, as NodejsFunction bundles its code. */
  distDirectory?: string;
  /** The API the reference documents: the OpenAPI document's `servers` (a token is resolved at deployment). */
  apiUrl?: string;
  /** The built console; by default dist/console (lib/console/build.ts), built here when missing or stale. */
  consoleDirectory?: string;
  /**
   * The API Gateway stage the console's API paths are forwarded to: its host
   * (`<id>.execute-api.<region>.amazonaws.com`) and the stage as a path (`/v1`).
   */
  apiOrigin?: { domainName: string; stagePath: string };
}

/**
 * The paths CloudFront forwards to the API. The console and its session cookie share one origin; and an
 * application's portal origin is the CDN's URL, where its mailed and shown links point: the affiliate portal's
 * pages and the click address `/t/{link_id}` (docs/api.md, "Links never come from request headers").
 */
export const consoleApiPaths = ['/console/api/*', '/redirect', '/portal*', '/affiliates/*', '/t/*'] as const;

/** The console's route rewrite: every path under /console/ but its assets is the single page. */
export const consoleRewriteCode = `function handler(event) {
  var request = event.request;
  if (request.uri.indexOf('${CONSOLE_ASSETS_PREFIX}') !== 0) request.uri = '${CONSOLE_PREFIX}${CONSOLE_INDEX}';
  return request;
}`;

/** The query parameter a site's script tag adds to bust caches (`…/js/urm-notification.js?date=…`). */
export const cacheBustingParameter = 'date';

/** How long the access logs of the bucket and the distribution are kept. */
export const accessLogRetention = Duration.days(90);

/** Where each writer puts its access logs in the log bucket. */
export const accessLogPrefixes = { bucket: 's3/push-cdn/', distribution: 'cloudfront/push-cdn/' } as const;

export class PushCdn extends Construct {
  readonly bucket: Bucket;
  /** The access logs of the bucket (S3 server access logs) and of the distribution (CloudFront standard logs). */
  readonly accessLogs: Bucket;
  readonly distribution: Distribution;
  /** `https://<distribution domain>`: {cdn_url}, where sites load the push SDK from (the `CdnUrl` output). */
  readonly url: string;
  /** The rendered API reference. */
  readonly docsUrl: string;
  /** `{cdn_url}/console/`: where /redirect lands. */
  readonly consoleUrl: string;

  constructor(scope: Construct, id: string, props: PushCdnProps = {}) {
    super(scope, id);
    const dist = props.distDirectory ?? distDir;
    if (!props.distDirectory) ensureSdkBuilt((line) => process.stderr.write(`${line}\n`));
    const consoleDir = props.consoleDirectory ?? consoleDistDir;
    if (!props.consoleDirectory) ensureConsoleBuilt((line) => process.stderr.write(`${line}\n`));

    const privateBucket = {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      // Kept when the stack goes: pages may pin old versioned scripts, and logs are evidence (they expire by rule).
      removalPolicy: RemovalPolicy.RETAIN,
    } satisfies BucketProps;
    this.accessLogs = new Bucket(this, 'AccessLogs', {
      ...privateBucket,
      // CloudFront standard logs are delivered with an ACL grant: the bucket must accept ACLs (S3's own use its policy).
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: accessLogRetention, abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    });
    this.bucket = new Bucket(this, 'Bucket', {
      ...privateBucket,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: accessLogPrefixes.bucket,
    });

    const cachePolicy = new CachePolicy(this, 'CachePolicy', {
      comment: 'urm SDK: the date query parameter is part of the cache key',
      queryStringBehavior: CacheQueryStringBehavior.allowList(cacheBustingParameter),
      defaultTtl: Duration.days(1),
      minTtl: Duration.seconds(0),
      maxTtl: Duration.days(365),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });

    // The API reference's pages may load and run only what comes from this distribution.
    const docsHeaders = new ResponseHeadersPolicy(this, 'DocsHeaders', {
      comment: 'urm API reference: same-origin content security policy',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: docsContentSecurityPolicy, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
    });
    // The console: its own policy (no inline script or style), the route rewrite, and files cached as S3 says
    // (index.html no-cache, hashed assets a year).
    const consoleHeaders = new ResponseHeadersPolicy(this, 'ConsoleHeaders', {
      comment: 'urm back-office console: content security policy without unsafe-inline',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: consoleContentSecurityPolicy, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.SAME_ORIGIN, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
    });
    const consoleCache = new CachePolicy(this, 'ConsoleCachePolicy', {
      comment: 'urm console: as the files say (index.html no-cache, hashed assets immutable)',
      queryStringBehavior: CacheQueryStringBehavior.none(),
      headerBehavior: CacheHeaderBehavior.none(),
      cookieBehavior: CacheCookieBehavior.none(),
      defaultTtl: Duration.minutes(5),
      minTtl: Duration.seconds(0),
      maxTtl: Duration.days(365),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const consoleRewrite = new CloudFrontFunction(this, 'ConsoleRewrite', {
      comment: 'urm console: every route answers console/index.html',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(consoleRewriteCode),
    });

    const origin = S3BucketOrigin.withOriginAccessControl(this.bucket);
    // The API on the same origin: nothing cached, everything the viewer sent (cookies, query, headers but Host) forwarded.
    const apiBehaviors: Record<string, BehaviorOptions> = {};
    if (props.apiOrigin) {
      const api = new HttpOrigin(props.apiOrigin.domainName, { originPath: props.apiOrigin.stagePath });
      for (const path of consoleApiPaths) {
        apiBehaviors[path.slice(1)] = {
          origin: api,
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          compress: true,
        };
      }
    }
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'urm web push SDK and API reference',
      defaultBehavior: {
        origin,
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy,
        // Scripts may be loaded with crossorigin="anonymous" (subresource integrity): any site may read them.
        responseHeadersPolicy: ResponseHeadersPolicy.CORS_ALLOW_ALL_ORIGINS_WITH_PREFLIGHT_AND_SECURITY_HEADERS,
        compress: true,
      },
      additionalBehaviors: {
        // First: CloudFront takes the first pattern that matches, and console/api/* is under console*.
        ...apiBehaviors,
        [`${CONSOLE_PREFIX.slice(1, -1)}*`]: {
          origin,
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: consoleCache,
          responseHeadersPolicy: consoleHeaders,
          functionAssociations: [{ function: consoleRewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
          compress: true,
        },
        [`${DOCS_PREFIX.slice(1)}*`]: {
          origin,
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy,
          responseHeadersPolicy: docsHeaders,
          compress: true,
        },
      },
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      logBucket: this.accessLogs,
      logFilePrefix: accessLogPrefixes.distribution,
    });
    this.url = `https://${this.distribution.distributionDomainName}`;
    this.docsUrl = `${this.url}${DOCS_PREFIX}${DOCS_PAGE}`;
    this.consoleUrl = `${this.url}${CONSOLE_PREFIX}`;

    // One asset, filtered per destination: the page script (and its versioned copy) under js/, the worker at
    // the root, each with its source map (browsers read a map whatever its type). No pruning: a versioned
    // file once published stays published. Each deployment invalidates the CDN's copies of its files.
    const source = Source.asset(dist);
    const logGroup = new LogGroup(this, 'DeploymentLogs', { retention: RetentionDays.ONE_MONTH });
    const deploy = (deploymentId: string, files: string, prefix: string) =>
      new BucketDeployment(this, deploymentId, {
        sources: [source],
        destinationBucket: this.bucket,
        destinationKeyPrefix: prefix || undefined,
        exclude: ['*'],
        include: [files],
        prune: false,
        contentType: 'application/javascript',
        cacheControl: [CacheControl.setPublic(), CacheControl.maxAge(Duration.hours(1))],
        distribution: this.distribution,
        distributionPaths: [`/${prefix}${files}`],
        logGroup,
        memoryLimit: 256,
      });
    deploy('PageScript', `${PAGE_SCRIPT.replace(/\.js$/, '')}*`, 'js/');
    deploy('WorkerScript', `${WORKER_SCRIPT}*`, '');

    // The API reference: the document at the root, the page, its script and the renderer's files under docs/.
    // Content types are guessed from the file extensions by the deployment (html, js, css, png, json).
    const document = buildOpenApiDocument(props.apiUrl ? { serverUrl: props.apiUrl } : {});
    validateOpenApiDocumentSync(document);
    const docsCache = [CacheControl.setPublic(), CacheControl.maxAge(Duration.hours(1))];
    new BucketDeployment(this, 'ApiDocument', {
      sources: [Source.jsonData(DOCUMENT_PATH.slice(1), document)],
      destinationBucket: this.bucket,
      prune: false,
      cacheControl: docsCache,
      distribution: this.distribution,
      distributionPaths: [DOCUMENT_PATH],
      logGroup,
      memoryLimit: 256,
    });
    new BucketDeployment(this, 'ApiDocs', {
      sources: [
        Source.asset(swaggerUiDir, { exclude: ['*', ...rendererFiles.map((name) => `!${name}`)] }),
        Source.data(DOCS_PAGE, docsPage({ tryItOut: false })),
        Source.data(pageScript.name, readFileSync(pageScript.file, 'utf8')),
      ],
      destinationBucket: this.bucket,
      destinationKeyPrefix: DOCS_PREFIX.slice(1),
      // Only under docs/: a renderer file a new version no longer loads goes away.
      prune: true,
      cacheControl: docsCache,
      distribution: this.distribution,
      distributionPaths: [`${DOCS_PREFIX}*`],
      logGroup,
      memoryLimit: 256,
    });

    // The console: the page always revalidated, the hashed assets cached for a year. No pruning: a tab opened
    // before a deployment still loads the assets its page names.
    const consoleSource = Source.asset(consoleDir);
    new BucketDeployment(this, 'ConsolePage', {
      sources: [consoleSource],
      destinationBucket: this.bucket,
      destinationKeyPrefix: CONSOLE_PREFIX.slice(1),
      exclude: ['*'],
      include: [CONSOLE_INDEX],
      prune: false,
      cacheControl: [CacheControl.noCache()],
      distribution: this.distribution,
      distributionPaths: [`${CONSOLE_PREFIX}*`],
      logGroup,
      memoryLimit: 256,
    });
    new BucketDeployment(this, 'ConsoleAssets', {
      sources: [consoleSource],
      destinationBucket: this.bucket,
      destinationKeyPrefix: CONSOLE_PREFIX.slice(1),
      exclude: ['*'],
      include: ['assets/*'],
      prune: false,
      cacheControl: [CacheControl.setPublic(), CacheControl.maxAge(Duration.days(365)), CacheControl.immutable()],
      logGroup,
      memoryLimit: 256,
    });
  }
}
