import { randomUUID } from 'node:crypto';
import { kinesis } from '../../adapters/clients/kinesis';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { journeyStore, keyResolver } from '../../adapters/stores';
import { ingestStream } from '../../manifest/resources';
import { requireEnv } from '../../runtime/config';
import { makeTriggerJourneyHandler } from './make-handler';

export const handler = makeTriggerJourneyHandler({
  keys: keyResolver(),
  journeys: journeyStore(),
  writer: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar)),
  newId: randomUUID,
  now: () => new Date(),
});
