import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { readBatch } from '../shared/stream/kinesis-batch';
import { logger } from '../shared/logger';

export const handler = middy<KinesisStreamEvent, KinesisStreamBatchResponse>()
  .use(injectLambdaContext(logger))
  .handler(async (event) => {
    const { items, undecodable } = readBatch(event);
    if (undecodable.length > 0) logger.error('Undecodable stream records', { undecodable });
    logger.info('Event records received', { records: items.length });
    return { batchItemFailures: [] };
  });
