import { kinesis } from '../../adapters/clients/kinesis';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { appStore, playerDirectory, profileStore, segmentStateStore, segmentStore, timelineStore } from '../../adapters/stores';
import { ingestStream } from '../../manifest/resources';
import { requireEnv } from '../../runtime/config';
import { makeSegmentTimersHandler } from './make-handler';

export const handler = makeSegmentTimersHandler({
  definitions: segmentStore(),
  states: segmentStateStore(),
  profiles: profileStore(),
  timeline: timelineStore(),
  directory: playerDirectory(),
  apps: appStore(),
  stream: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar)),
  now: () => new Date(),
});
