/**
 * The Kinesis client, created once per container (one module per client: see dynamo.ts).
 * HTTP/1.1 on purpose: the SDK's default for Kinesis is HTTP/2, which PutRecords does not
 * need and the local emulator (kinesalite) does not speak. Connections are kept alive.
 */
import { KinesisClient } from '@aws-sdk/client-kinesis';
import { NodeHttpHandler } from '@smithy/node-http-handler';

export const kinesis = new KinesisClient({ requestHandler: new NodeHttpHandler() });
