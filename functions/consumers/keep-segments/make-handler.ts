/** The segment consumer, made from its ports: handler.ts passes the container's, a test its fakes. */
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { AppStore } from '../../domain/apps';
import { moneySettingsOf, type MoneySettings } from '../../domain/money-settings';
import type { RejectionSink } from '../../domain/timeline';
import { LookupCache, lookupCacheDefaults } from '../../http/lookup-cache';
import { logger } from '../../runtime/logger';
import { consumeBatch } from '../../stream/consume';
import { keepSegments, type KeepSegmentsDeps } from './core';

export interface KeepSegmentsHandlerPorts extends Omit<KeepSegmentsDeps, 'settings'> {
  /** Where the money settings come from, through a cache (as the funnel consumer reads them). */
  apps: Pick<AppStore, 'get'>;
  /** Only for records that cannot be decoded (consumeBatch). */
  rejections: RejectionSink;
}

export function makeKeepSegmentsHandler({ apps, rejections, ...ports }: KeepSegmentsHandlerPorts) {
  const settingsCache = new LookupCache<MoneySettings>(lookupCacheDefaults);
  const keep = keepSegments({
    ...ports,
    settings: (appId) =>
      settingsCache.get(appId, async (id) => {
        const app = await apps.get(id);
        return app && moneySettingsOf(app);
      }),
  });
  return middy<KinesisStreamEvent, KinesisStreamBatchResponse>()
    .use(injectLambdaContext(logger))
    .handler(
      consumeBatch(rejections, async (items) => {
        const { failed, counts } = await keep(items);
        // Counts only: never a profile id, an attribute or a segment's name.
        logger.info('Segments kept', { records: items.length, players_failed: failed.length, ...counts });
        return failed;
      }),
    );
}
