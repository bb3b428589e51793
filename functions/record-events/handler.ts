import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { tables } from '../shared/manifest/resources';
import { DynamoProfileStore } from '../shared/adapters/dynamo-profile-store';
import { DynamoRejectionLog } from '../shared/adapters/dynamo-rejection-log';
import { DynamoTimelineStore } from '../shared/adapters/dynamo-timeline-store';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { logger } from '../shared/logger';
import { countApplied, flushMetrics } from '../shared/metrics';
import { consumeBatch } from '../shared/stream/consume';
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
