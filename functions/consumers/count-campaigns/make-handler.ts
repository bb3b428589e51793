/** The campaign results consumer, made from its ports: handler.ts passes the container's, a test its fakes. */
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { AppStore } from '../../domain/apps';
import type { RejectionSink } from '../../domain/timeline';
import { logger } from '../../runtime/logger';
import { consumeBatch } from '../../stream/consume';
import { cachedMoneySettings } from '../../stream/money-settings';
import { countCampaigns, type CountCampaignsDeps } from './core';

export interface CountCampaignsHandlerPorts extends Omit<CountCampaignsDeps, 'settings'> {
  apps: Pick<AppStore, 'get'>;
  rejections: RejectionSink;
}

export function makeCountCampaignsHandler(ports: CountCampaignsHandlerPorts) {
  const count = countCampaigns({
    store: ports.store,
    settings: cachedMoneySettings(ports.apps),
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
