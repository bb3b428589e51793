/** POST /events, made from its ports: handler.ts passes the container's, a test its fakes. */
import type { IngestDeps } from '../../domain/ingest';
import { maxBodyBytesOf } from '../../manifest/body-limits';
import { jsonApi, type BrowserPorts } from '../../http/json-api';
import { json } from '../../http/response';
import { logger } from '../../runtime/logger';
import { countIngested, ingestionMetrics } from '../../runtime/metrics';
import { ingestEvents } from './core';
import { validEventsBody } from './schema';

export type IngestEventsHandlerPorts = BrowserPorts & IngestDeps;

export function makeIngestEventsHandler(ports: IngestEventsHandlerPorts) {
  const ingest = ingestEvents(ports);
  return jsonApi({
    scopes: ['server', 'browser'],
    validate: validEventsBody,
    maxBytes: maxBodyBytesOf('IngestEvents'),
    keys: ports.keys,
    origins: ports.origins,
  })
    .use(ingestionMetrics())
    .handler(async (event, context) => {
      const receipt = await ingest(event.body, context.principal.appId, context.principal.scope);
      countIngested(receipt);
      logger.info('Events ingested', { app_id: context.principal.appId, records: event.body.length, failed: receipt.FailedRecordCount });
      return json(200, receipt);
    });
}
