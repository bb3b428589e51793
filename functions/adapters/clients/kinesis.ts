/**
 * The Kinesis client, created once per container (one module per client: see dynamo.ts).
 * HTTP/1.1 on purpose: PutRecords needs no HTTP/2, and the local emulator speaks only HTTP/1.1.
 */
import { KinesisClient } from '@aws-sdk/client-kinesis';
import { keepAlive } from './keep-alive';

export const kinesis = new KinesisClient({ requestHandler: keepAlive() });
