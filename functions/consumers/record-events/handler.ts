import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { tables } from '../../manifest/resources';
import { DynamoProfileStore } from '../../adapters/dynamo-profile-store';
import { DynamoRejectionLog } from '../../adapters/dynamo-rejection-log';
import { DynamoTimelineStore } from '../../adapters/dynamo-timeline-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { logger } from '../../runtime/logger';
import { countApplied, flushMetrics } from '../../runtime/metrics';
import { consumeBatch } from '../../stream/consume';
import { recordEvents } from './core';

const rejections = new DynamoRejectionLog(dynamo, requireEnv(tables.rejections.envVar));
const record = recordEvents({
  profiles: new DynamoProfileStore(dynamo, requireEnv(tables.profiles.envVar)),
  timeline: new DynamoTimelineStore(dynamo, requireEnv(tables.timeline.envVar)),
  rejections,
  now: () => new Date(),
});

export const handler = middy<KinesisStreamEvent, KinesisStreamBatchResponse>()
  .use(injectLambdaContext(logger))
  .use(flushMetrics())
  .handler(
    consumeBatch(rejections, async (items) => {
      const counts = await record(items);
      logger.info('Events recorded', counts);
      countApplied({ applied: counts.written, duplicates: counts.duplicates, rejected: counts.rejected, droppedAfterDelete: counts.dropped });
      // A failure throws: the whole batch is delivered again (bisected), and entries already written are left as they are.
      return [];
    }),
  );
