/** The journeys consumer, made from its ports: handler.ts passes the container's, a test its fakes. */
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { RejectionSink } from '../../domain/timeline';
import { logger } from '../../runtime/logger';
import { consumeBatch } from '../../stream/consume';
import { runJourneys, type RunJourneysDeps } from './core';

export interface RunJourneysHandlerPorts extends RunJourneysDeps {
  /** Only for records that cannot be decoded (consumeBatch). */
  rejections: RejectionSink;
}

export function makeRunJourneysHandler({ rejections, ...ports }: RunJourneysHandlerPorts) {
  const run = runJourneys(ports);
  return middy<KinesisStreamEvent, KinesisStreamBatchResponse>()
    .use(injectLambdaContext(logger))
    .handler(
      consumeBatch(rejections, async (items) => {
        const { failed, counts } = await run(items);
        // Counts only: never a profile id, a journey's data or a template's text.
        if (counts.players > 0) logger.info('Journeys run', { records: items.length, players_failed: failed.length, ...counts });
        return failed;
      }),
    );
}
