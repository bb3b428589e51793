/** The funnel consumer, made from its ports: handler.ts passes the container's, a test its fakes. */
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { AppStore } from '../../domain/apps';
import { moneySettingsOf, type MoneySettings } from '../../domain/money-settings';
import { LookupCache, lookupCacheDefaults } from '../../http/lookup-cache';
import { logger } from '../../runtime/logger';
import { consumeBatch } from '../../stream/consume';
import { countFunnel, type CountFunnelDeps } from './core';

export interface CountFunnelHandlerPorts extends Omit<CountFunnelDeps, 'settings'> {
  /** Where the money settings come from, through a cache. */
  apps: Pick<AppStore, 'get'>;
}

export function makeCountFunnelHandler(ports: CountFunnelHandlerPorts) {
  // Settings changes reach the consumer within the cache's 30 seconds, like key revocations reach the API.
  const settingsCache = new LookupCache<MoneySettings>(lookupCacheDefaults);
  const count = countFunnel({
    ...ports,
    settings: (appId) =>
      settingsCache.get(appId, async (id) => {
        const app = await ports.apps.get(id);
        return app && moneySettingsOf(app);
      }),
  });
  return middy<KinesisStreamEvent, KinesisStreamBatchResponse>()
    .use(injectLambdaContext(logger))
    .handler(
      consumeBatch(ports.rejections, async (items) => {
        const counts = await count(items);
        logger.info('Funnel counted', { records: items.length, ...counts });
        // A failure throws: the batch comes again (bisected), and what was counted is skipped.
        return [];
      }),
    );
}
