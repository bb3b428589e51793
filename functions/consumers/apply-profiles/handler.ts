import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { ingestStream, tables } from '../../manifest/resources';
import { DynamoProfileStore } from '../../adapters/dynamo-profile-store';
import { DynamoRejectionLog } from '../../adapters/dynamo-rejection-log';
import { DynamoTimelineStore } from '../../adapters/dynamo-timeline-store';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { dynamo } from '../../adapters/clients/dynamo';
import { kinesis } from '../../adapters/clients/kinesis';
import { optionalEnv, requireEnv } from '../../runtime/config';
import { logger } from '../../runtime/logger';
import { countApplied, flushMetrics } from '../../runtime/metrics';
import { consumeBatch } from '../../stream/consume';
import { applyProfiles, TIMELINE_STEP_ITEMS } from './core';

/** How many timeline entries a delete or merge walks per invocation before it continues (an operator's tunable). */
const timelineStepItems = Number(optionalEnv('TIMELINE_STEP_ITEMS', String(TIMELINE_STEP_ITEMS)));
if (!Number.isSafeInteger(timelineStepItems) || timelineStepItems < 1) throw new Error('TIMELINE_STEP_ITEMS must be a positive integer');

const rejections = new DynamoRejectionLog(dynamo, requireEnv(tables.rejections.envVar));
const apply = applyProfiles({
  profiles: new DynamoProfileStore(dynamo, requireEnv(tables.profiles.envVar)),
  timeline: new DynamoTimelineStore(dynamo, requireEnv(tables.timeline.envVar)),
  rejections,
  stream: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar)),
  now: () => new Date(),
  log: logger,
  timelineStepItems,
});

export const handler = middy<KinesisStreamEvent, KinesisStreamBatchResponse>()
  .use(injectLambdaContext(logger))
  .use(flushMetrics())
  .handler(
    consumeBatch(rejections, async (items) => {
      const { failed, counts } = await apply(items);
      countApplied(counts);
      // One line per batch, like the event consumer's: counts only, never attributes.
      logger.info('Profile records applied', { records: items.length, profiles_failed: failed.length });
      return failed;
    }),
  );
