/** The segment timer, made from its ports: handler.ts passes the container's, a test its fakes. */
import type { Context, ScheduledEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { AppStore } from '../../domain/apps';
import { moneySettingsOf, type MoneySettings } from '../../domain/money-settings';
import { LookupCache, lookupCacheDefaults } from '../../http/lookup-cache';
import { logger } from '../../runtime/logger';
import { runSegmentTimers, type SegmentTimersDeps, type TimerRunCounts } from './core';

export interface SegmentTimersHandlerPorts extends Omit<SegmentTimersDeps, 'settings' | 'remainingMs'> {
  apps: Pick<AppStore, 'get'>;
}

export function makeSegmentTimersHandler({ apps, ...ports }: SegmentTimersHandlerPorts) {
  const settingsCache = new LookupCache<MoneySettings>(lookupCacheDefaults);
  const settings = (appId: string) =>
    settingsCache.get(appId, async (id) => {
      const app = await apps.get(id);
      return app && moneySettingsOf(app);
    });
  return middy<ScheduledEvent, TimerRunCounts>()
    .use(injectLambdaContext(logger))
    .handler(async (_event: ScheduledEvent, context: Context) => {
      const counts = await runSegmentTimers({ ...ports, settings, remainingMs: () => context.getRemainingTimeInMillis() })();
      // Counts only, and only when there was something to do (the local stack runs this every second).
      if (counts.due > 0 || counts.backfilled > 0) logger.info('Segment timers run', { ...counts });
      return counts;
    });
}
