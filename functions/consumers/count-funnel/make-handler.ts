/** The funnel consumer, made from its ports: handler.ts passes the container's, a test its fakes. */
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { AppStore } from '../../domain/apps';
import { receivedEvents, type PostbackEvent, type PostbackSettingsStore } from '../../domain/postbacks';
import { LookupCache, lookupCacheDefaults } from '../../http/lookup-cache';
import { logger } from '../../runtime/logger';
import { consumeBatch } from '../../stream/consume';
import { cachedMoneySettings } from '../../stream/money-settings';
import { countFunnel, type CountFunnelDeps } from './core';

export interface CountFunnelHandlerPorts extends Omit<CountFunnelDeps, 'settings' | 'postbackEvents'> {
  /** Where the money settings come from, through a cache. */
  apps: Pick<AppStore, 'get'>;
  /** Where the postback events each affiliate receives come from, through a cache (a choice takes effect within its 30 s). */
  postbackSettings: Pick<PostbackSettingsStore, 'get'>;
}

export function makeCountFunnelHandler({ postbackSettings, ...ports }: CountFunnelHandlerPorts) {
  const events = new LookupCache<PostbackEvent[]>(lookupCacheDefaults);
  const count = countFunnel({
    ...ports,
    settings: cachedMoneySettings(ports.apps),
    postbackEvents: async (appId, affiliateId) =>
      (await events.get(`${appId}\u0000${affiliateId}`, async () => receivedEvents(await postbackSettings.get(appId, affiliateId)))) ?? [],
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
