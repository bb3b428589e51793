/** The campaign results consumer, made from its ports: handler.ts passes the container's, a test its fakes. */
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { AppStore } from '../../domain/apps';
import { moneySettingsOf, type MoneySettings } from '../../domain/money-settings';
import type { RejectionSink } from '../../domain/timeline';
import { LookupCache, lookupCacheDefaults } from '../../http/lookup-cache';
import { logger } from '../../runtime/logger';
import { consumeBatch } from '../../stream/consume';
import { countCampaigns, type CountCampaignsDeps } from './core';

export interface CountCampaignsHandlerPorts extends Omit<CountCampaignsDeps, 'settings'> {
  apps: Pick<AppStore, 'get'>;
  rejections: RejectionSink;
}

export function makeCountCampaignsHandler(ports: CountCampaignsHandlerPorts) {
  // The funnel's money mapping, through the same 30-second cache the funnel consumer keeps.
  const settingsCache = new LookupCache<MoneySettings>(lookupCacheDefaults);
  const count = countCampaigns({
    store: ports.store,
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
        if (counts.counted + counts.money + counts.repeated > 0) logger.info('Campaign results counted', { records: items.length, ...counts });
        return [];
      }),
    );
}
