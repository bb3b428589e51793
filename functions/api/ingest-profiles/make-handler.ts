/** POST /profiles, made from its ports: handler.ts passes the container's, a test its fakes. */
import { maxBodyBytesOf } from '../../manifest/body-limits';
import { jsonApi, type BrowserPorts } from '../../http/json-api';
import { json } from '../../http/response';
import { logger } from '../../runtime/logger';
import { countIngested, ingestionMetrics } from '../../runtime/metrics';
import { ingestProfiles, type IngestProfilesDeps } from './core';
import { validProfilesBody } from './schema';

/** `writer` must keep each key's records in order (KinesisRecordWriter's keepKeyOrder): a refused one must not land after the next. */
export type IngestProfilesHandlerPorts = BrowserPorts & IngestProfilesDeps;

export function makeIngestProfilesHandler(ports: IngestProfilesHandlerPorts) {
  const ingest = ingestProfiles(ports);
  return jsonApi({
    scopes: ['server', 'browser'],
    validate: validProfilesBody,
    maxBytes: maxBodyBytesOf('IngestProfiles'),
    keys: ports.keys,
    origins: ports.origins,
  })
    .use(ingestionMetrics())
    .handler(async (event, context) => {
      const receipt = await ingest(event.body, context.principal.appId, context.principal.scope);
      countIngested(receipt);
      logger.info('Profiles ingested', { app_id: context.principal.appId, records: event.body.length, failed: receipt.FailedRecordCount });
      return json(200, receipt);
    });
}
