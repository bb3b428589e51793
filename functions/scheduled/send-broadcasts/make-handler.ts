/** The broadcast sender, made from its ports: handler.ts passes the container's, a test its fakes. */
import type { Context, ScheduledEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logger } from '../../runtime/logger';
import { runSendBroadcasts, type SendBroadcastsCounts, type SendBroadcastsDeps } from './core';

export type SendBroadcastsHandlerPorts = Omit<SendBroadcastsDeps, 'remainingMs'>;

export function makeSendBroadcastsHandler(ports: SendBroadcastsHandlerPorts) {
  return middy<ScheduledEvent, SendBroadcastsCounts>()
    .use(injectLambdaContext(logger))
    .handler(async (_event: ScheduledEvent, context: Context) => {
      const counts = await runSendBroadcasts({ ...ports, remainingMs: () => context.getRemainingTimeInMillis() })();
      // Counts only, and only when there was something to do (the local stack runs this every second).
      if (counts.broadcasts > 0) logger.info('Broadcasts run', { ...counts });
      if (counts.failed + counts.retried > 0) logger.warn('Broadcast sends failed', { failed: counts.failed, retried: counts.retried });
      return counts;
    });
}
