/** The funnel consumer, made from its ports: handler.ts passes the container's, a test its fakes. */
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { AppStore } from '../../domain/apps';
import { logger } from '../../runtime/logger';
import { consumeBatch } from '../../stream/consume';
import { cachedMoneySettings } from '../../stream/money-settings';
import { countFunnel, type CountFunnelDeps } from './core';

export interface CountFunnelHandlerPorts extends Omit<CountFunnelDeps, 'settings'> {
  /** Where the money settings come from, through a cache. */
  apps: Pick<AppStore, 'get'>;
}

export function makeCountFunnelHandler(ports: CountFunnelHandlerPorts) {
  const count = countFunnel({
    ...ports,
    settings: cachedMoneySettings(ports.apps),
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
