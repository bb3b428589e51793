/** The postback sender, made from its ports: handler.ts passes the container's, a test its fakes. */
import type { Context, ScheduledEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { AppStore } from '../../domain/apps';
import { moneySettingsOf } from '../../domain/money-settings';
import type { PostbackLog, PostbackOutbox } from '../../domain/postbacks';
import { LookupCache, lookupCacheDefaults } from '../../http/lookup-cache';
import { logger } from '../../runtime/logger';
import { sendPostbacks, type PostbackRunCounts, type SendPostbacksDeps } from './core';

export interface SendPostbacksHandlerPorts
  extends Pick<SendPostbacksDeps, 'settings' | 'secrets' | 'transport' | 'payoutPlan' | 'now' | 'pageSize' | 'concurrency'> {
  /** The due rows, and where each delivery attempt is kept (the funnel table holds both). */
  outbox: PostbackOutbox & PostbackLog;
  /** Where the currency of each application's amounts comes from, through a cache. */
  apps: Pick<AppStore, 'get'>;
}

export function makeSendPostbacksHandler({ apps, outbox, ...ports }: SendPostbacksHandlerPorts) {
  const currencies = new LookupCache<string>(lookupCacheDefaults);
  const currency = (appId: string) =>
    currencies.get(appId, async (id) => {
      const app = await apps.get(id);
      return app && moneySettingsOf(app).currency;
    });
  return middy<ScheduledEvent, PostbackRunCounts>()
    .use(injectLambdaContext(logger))
    .handler(async (_event: ScheduledEvent, context: Context) => {
      const counts = await sendPostbacks({ ...ports, outbox, log: outbox, currency, remainingMs: () => context.getRemainingTimeInMillis() })();
      if (counts.due > 0) logger.info('Postbacks sent', { ...counts });
      return counts;
    });
}
