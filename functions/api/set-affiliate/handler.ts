import { randomUUID } from 'node:crypto';
import { kinesis } from '../../adapters/clients/kinesis';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { keyResolver } from '../../adapters/stores';
import { ingestStream } from '../../manifest/resources';
import { requireEnv } from '../../runtime/config';
import { makeSetAffiliateHandler } from './make-handler';

export const handler = makeSetAffiliateHandler({
  keys: keyResolver(),
  writer: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar)),
  newId: randomUUID,
  now: () => new Date(),
});
