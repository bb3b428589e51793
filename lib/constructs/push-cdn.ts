/**
 * The CDN of the browser push client (spec 4.7): a private, encrypted S3
 * bucket that only CloudFront can read (origin access control), holding
 * web-sdk/dist as `{cdn_url}/js/urm-notification.js` (and its versioned copy)
 * and `{cdn_url}/urmSDKWorker.js`, served as application/javascript. The
 * `date` query parameter pages add is part of the cache key, so a new date
 * fetches a fresh copy.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  CacheQueryStringBehavior,
  Distribution,
  HttpVersion,
  PriceClass,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { distDir, ensureSdkBuilt, PAGE_SCRIPT, WORKER_SCRIPT } from '../../web-sdk/build';

export interface PushCdnProps {
  /** The built SDK; by default web-sdk/dist, built here when missing or stale, as NodejsFunction bundles its code. */
  distDirectory?: string;
}

/** The query parameter the spec's script tag adds to bust caches. */
export const cacheBustingParameter = 'date';

export class PushCdn extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** `https://<distribution domain>`: the spec's {cdn_url}. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: PushCdnProps = {}) {
    super(scope, id);
    const dist = props.distDirectory ?? distDir;
    if (!props.distDirectory) ensureSdkBuilt((line) => process.stderr.write(`${line}\n`));

    this.bucket = new Bucket(this, 'Bucket', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      // Old versioned scripts stay available for pages pinned to them; nothing here is customer data.
      removalPolicy: RemovalPolicy.RETAIN,
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

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'urm web push SDK',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy,
        // Scripts may be loaded with crossorigin="anonymous" (subresource integrity): any site may read them.
        responseHeadersPolicy: ResponseHeadersPolicy.CORS_ALLOW_ALL_ORIGINS_WITH_PREFLIGHT_AND_SECURITY_HEADERS,
        compress: true,
      },
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
    });
    this.url = `https://${this.distribution.distributionDomainName}`;

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
  }
}
