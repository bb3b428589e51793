/** The profile consumer, made from its ports: handler.ts passes the container's, a test its fakes. */
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logger } from '../../runtime/logger';
import { countApplied, flushMetrics } from '../../runtime/metrics';
import { consumeBatch } from '../../stream/consume';
import { applyProfiles, type ApplyProfilesDeps } from './core';

export type ApplyProfilesHandlerPorts = Omit<ApplyProfilesDeps, 'log'>;

/** An operator's TIMELINE_STEP_ITEMS (how many timeline entries a delete or merge walks per invocation before it continues), checked. */
export function timelineStepItemsOf(value: string): number {
  const items = Number(value);
  if (!Number.isSafeInteger(items) || items < 1) throw new Error('TIMELINE_STEP_ITEMS must be a positive integer');
  return items;
}

export function makeApplyProfilesHandler(ports: ApplyProfilesHandlerPorts) {
  const apply = applyProfiles({ ...ports, log: logger });
  return middy<KinesisStreamEvent, KinesisStreamBatchResponse>()
    .use(injectLambdaContext(logger))
    .use(flushMetrics())
    .handler(
      consumeBatch(ports.rejections, async (items) => {
        const { failed, counts } = await apply(items);
        countApplied(counts);
        // One line per batch, like the event consumer's: counts only, never attributes.
        logger.info('Profile records applied', { records: items.length, profiles_failed: failed.length });
        return failed;
      }),
    );
}
