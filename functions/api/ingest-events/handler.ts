import { randomUUID } from 'node:crypto';
import { kinesis } from '../../adapters/clients/kinesis';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { appOrigins, keyResolver } from '../../adapters/stores';
import { ingestStream } from '../../manifest/resources';
import { requireEnv } from '../../runtime/config';
import { makeIngestEventsHandler } from './make-handler';

export const handler = makeIngestEventsHandler({
  keys: keyResolver(),
  origins: appOrigins(),
  writer: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar)),
  newId: randomUUID,
  now: () => new Date(),
});
