/** The event consumer, made from its ports: handler.ts passes the container's, a test its fakes. */
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logger } from '../../runtime/logger';
import { countApplied, flushMetrics } from '../../runtime/metrics';
import { consumeBatch } from '../../stream/consume';
import { recordEvents, type RecordEventsDeps } from './core';

export function makeRecordEventsHandler(ports: RecordEventsDeps) {
  const record = recordEvents(ports);
  return middy<KinesisStreamEvent, KinesisStreamBatchResponse>()
    .use(injectLambdaContext(logger))
    .use(flushMetrics())
    .handler(
      consumeBatch(ports.rejections, async (items) => {
        const counts = await record(items);
        logger.info('Events recorded', counts);
        countApplied({ applied: counts.written, duplicates: counts.duplicates, rejected: counts.rejected, droppedAfterDelete: counts.dropped });
        // A failure throws: the whole batch is delivered again (bisected), and entries already written are left as they are.
        return [];
      }),
    );
}
