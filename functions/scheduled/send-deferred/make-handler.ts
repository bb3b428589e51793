/** The deferred sender, made from its ports: handler.ts passes the container's, a test its fakes. */
import type { Context, ScheduledEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logger } from '../../runtime/logger';
import { runSendDeferred, type SendDeferredCounts, type SendDeferredDeps } from './core';

export type SendDeferredHandlerPorts = Omit<SendDeferredDeps, 'remainingMs'>;

export function makeSendDeferredHandler(ports: SendDeferredHandlerPorts) {
  return middy<ScheduledEvent, SendDeferredCounts>()
    .use(injectLambdaContext(logger))
    .handler(async (_event: ScheduledEvent, context: Context) => {
      const counts = await runSendDeferred({ ...ports, remainingMs: () => context.getRemainingTimeInMillis() })();
      // Counts only, and only when there was something to do (the local stack runs this every second).
      if (counts.due > 0) logger.info('Deferred messages run', { ...counts });
      if (counts.failed > 0) logger.warn('Deferred messages failed, retried after their lease', { failed: counts.failed });
      return counts;
    });
}
