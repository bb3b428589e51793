/**
 * AWS SDK clients, created once per container and shared by every adapter.
 * Endpoints come from the standard AWS_ENDPOINT_URL_<SERVICE> variables, which
 * is all that differs in the local stack. The pure annotations let esbuild drop
 * the clients a function does not use.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { KinesisClient } from '@aws-sdk/client-kinesis';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SSMClient } from '@aws-sdk/client-ssm';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';

const keepAlive = () =>
  new NodeHttpHandler({
    httpAgent: new HttpAgent({ keepAlive: true }),
    httpsAgent: new HttpsAgent({ keepAlive: true }),
  });

export const dynamo = /* @__PURE__ */ DynamoDBDocumentClient.from(
  /* @__PURE__ */ new DynamoDBClient({ requestHandler: /* @__PURE__ */ keepAlive() }),
  { marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false } },
);

// HTTP/1.1 on purpose: PutRecords needs no HTTP/2, and the local emulator speaks only HTTP/1.1.
export const kinesis = /* @__PURE__ */ new KinesisClient({ requestHandler: /* @__PURE__ */ keepAlive() });

export const sesv2 = /* @__PURE__ */ new SESv2Client({ requestHandler: /* @__PURE__ */ keepAlive() });

// Secrets (VAPID private keys) in AWS; the local stack reads them from DynamoDB instead (functions/shared/manifest/secrets.ts).
export const ssm = /* @__PURE__ */ new SSMClient({ requestHandler: /* @__PURE__ */ keepAlive() });
