import { randomUUID } from 'node:crypto';
import { kinesis } from '../../adapters/clients/kinesis';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { affiliateStore, clickClaims, linkStore } from '../../adapters/stores';
import { ingestStream } from '../../manifest/resources';
import { requireEnv } from '../../runtime/config';
import { makeTrackClickHandler } from './make-handler';

export const handler = makeTrackClickHandler({
  links: linkStore(),
  affiliates: affiliateStore(),
  claims: clickClaims(),
  // The visitor waits for the write: two quick attempts, then the click goes uncounted.
  writer: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar), { maxAttempts: 2, baseDelayMs: 25, maxDelayMs: 50 }),
  newId: randomUUID,
  now: () => new Date(),
});
