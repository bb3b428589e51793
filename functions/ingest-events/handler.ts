import { randomUUID } from 'node:crypto';
import { maxBodyBytesOf } from '../shared/manifest/body-limits';
import { ingestStream } from '../shared/manifest/resources';
import { KinesisRecordWriter } from '../shared/adapters/kinesis-record-writer';
import { kinesis } from '../shared/clients/kinesis';
import { requireEnv } from '../shared/config';
import { jsonApi } from '../shared/http/json-api';
import { json } from '../shared/http/response';
import { logger } from '../shared/logger';
import { countIngested, ingestionMetrics } from '../shared/metrics';
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
