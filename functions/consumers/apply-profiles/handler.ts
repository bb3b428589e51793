import { kinesis } from '../../adapters/clients/kinesis';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { appStore, countingProfileStore, playerSearch, rejectionLog, timelineStore } from '../../adapters/stores';
import { cachedSearchSetting } from '../../domain/player-search';
import { ingestStream } from '../../manifest/resources';
import { optionalEnv, requireEnv } from '../../runtime/config';
import { TIMELINE_STEP_ITEMS } from './core';
import { makeApplyProfilesHandler, timelineStepItemsOf } from './make-handler';

export const handler = makeApplyProfilesHandler({
  profiles: countingProfileStore(),
  timeline: timelineStore(),
  rejections: rejectionLog(),
  search: { index: playerSearch(), setting: cachedSearchSetting(appStore()) },
  stream: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar)),
  now: () => new Date(),
  timelineStepItems: timelineStepItemsOf(optionalEnv('TIMELINE_STEP_ITEMS', String(TIMELINE_STEP_ITEMS))),
});
