import { randomUUID } from 'node:crypto';
import { kinesis } from '../../adapters/clients/kinesis';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { ingestStream } from '../../manifest/resources';
import { requireEnv } from '../../runtime/config';
import { makeEmailEventsHandler } from './make-handler';

export const handler = makeEmailEventsHandler({
  writer: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar)),
  now: () => new Date(),
  newId: randomUUID,
});
