/** The journey timers, made from their ports: handler.ts passes the container's, a test its fakes. */
import type { Context, ScheduledEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logger } from '../../runtime/logger';
import { runJourneyTimers, type JourneyTimersCounts, type JourneyTimersDeps } from './core';

export type JourneyTimersHandlerPorts = Omit<JourneyTimersDeps, 'remainingMs'>;

export function makeJourneyTimersHandler(ports: JourneyTimersHandlerPorts) {
  return middy<ScheduledEvent, JourneyTimersCounts>()
    .use(injectLambdaContext(logger))
    .handler(async (_event: ScheduledEvent, context: Context) => {
      const counts = await runJourneyTimers({ ...ports, remainingMs: () => context.getRemainingTimeInMillis() })();
      // Counts only, and only when there was something to do (the local stack runs this every second).
      if (counts.due > 0) logger.info('Journey timers run', { ...counts });
      if (counts.errors > 0) logger.warn('Journey timers failed, retried after their lease', { errors: counts.errors });
      return counts;
    });
}
