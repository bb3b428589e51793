import { kinesis } from '../../adapters/clients/kinesis';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { appStore, profileStore, rejectionLog, segmentStateStore, segmentStore, timelineStore } from '../../adapters/stores';
import { ingestStream } from '../../manifest/resources';
import { requireEnv } from '../../runtime/config';
import { makeKeepSegmentsHandler } from './make-handler';

export const handler = makeKeepSegmentsHandler({
  definitions: segmentStore(),
  states: segmentStateStore(),
  profiles: profileStore(),
  timeline: timelineStore(),
  apps: appStore(),
  rejections: rejectionLog(),
  stream: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar)),
  now: () => new Date(),
});
