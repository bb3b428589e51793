import { kinesis } from '../../adapters/clients/kinesis';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { countingProfileStore, rejectionLog, timelineStore } from '../../adapters/stores';
import { ingestStream } from '../../manifest/resources';
import { optionalEnv, requireEnv } from '../../runtime/config';
import { TIMELINE_STEP_ITEMS } from './core';
import { makeApplyProfilesHandler, timelineStepItemsOf } from './make-handler';

export const handler = makeApplyProfilesHandler({
  profiles: countingProfileStore(),
  timeline: timelineStore(),
  rejections: rejectionLog(),
  stream: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar)),
  now: () => new Date(),
  timelineStepItems: timelineStepItemsOf(optionalEnv('TIMELINE_STEP_ITEMS', String(TIMELINE_STEP_ITEMS))),
});
