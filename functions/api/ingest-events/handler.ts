import { randomUUID } from 'node:crypto';
import { maxBodyBytesOf } from '../../manifest/body-limits';
import { ingestStream } from '../../manifest/resources';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { kinesis } from '../../adapters/clients/kinesis';
import { requireEnv } from '../../runtime/config';
import { jsonApi } from '../../http/json-api';
import { json } from '../../http/response';
import { logger } from '../../runtime/logger';
import { countIngested, ingestionMetrics } from '../../runtime/metrics';
import { ingestEvents } from './core';
import { validEventsBody } from './schema';

const writer = new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar));
const ingest = ingestEvents({ writer, newId: randomUUID, now: () => new Date() });

export const handler = jsonApi({
  scopes: ['server', 'browser'],
  validate: validEventsBody,
  maxBytes: maxBodyBytesOf('IngestEvents'),
})
  .use(ingestionMetrics())
  .handler(async (event, context) => {
    const receipt = await ingest(event.body, context.principal.appId, context.principal.scope);
    countIngested(receipt);
    logger.info('Events ingested', { app_id: context.principal.appId, records: event.body.length, failed: receipt.FailedRecordCount });
    return json(200, receipt);
  });
