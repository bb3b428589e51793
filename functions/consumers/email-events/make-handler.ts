/** The SES event function, made from its ports: handler.ts passes the container's, a test its fakes. */
import type { Context, EventBridgeEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { ValidationError } from '../../domain/errors';
import { logger } from '../../runtime/logger';
import { recordEmailEvent, type EmailEventResult, type EmailEventsDeps } from './core';
import { checkSesEvent, type SesEvent } from './schema';

export function makeEmailEventsHandler(ports: EmailEventsDeps) {
  const record = recordEmailEvent(ports);
  return middy<EventBridgeEvent<string, unknown>, EmailEventResult>()
    .use(injectLambdaContext(logger))
    .handler(async (input: EventBridgeEvent<string, unknown>, _context: Context) => {
      let event: SesEvent;
      try {
        event = checkSesEvent(input);
      } catch (error) {
        // Delivered again it would be refused again: logged (its problems, never its addresses) and dropped.
        if (!(error instanceof ValidationError)) throw error;
        logger.warn('SES event ignored: not in the format urm reads', { problems: error.errors.slice(0, 5) });
        return { ignored: 'format' };
      }
      const result = await record(event);
      const about = { eventType: event.detail.eventType, messageId: event.detail.mail.messageId };
      if ('ignored' in result) logger.info('SES event ignored', { ...about, reason: result.ignored });
      else logger.info('SES event recorded', { ...about, records: result.written });
      return result;
    });
}
