import { randomUUID } from 'node:crypto';
import { maxBodyBytesOf } from '../shared/manifest/body-limits';
import { ingestStream, pushSending, tables } from '../shared/manifest/resources';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { AppIdentityKeyring } from '../shared/adapters/identity-keyring';
import { defaultRetryPolicy, KinesisRecordWriter } from '../shared/adapters/kinesis-record-writer';
import { secretStoreFromEnv } from '../shared/adapters/secret-store';
import { dynamo } from '../shared/clients/dynamo';
import { kinesis } from '../shared/clients/kinesis';
import { optionalEnv, requireEnv } from '../shared/config';
import { pushEndpointPolicy } from '../shared/domain/push';
import { jsonApi } from '../shared/http/json-api';
import { json } from '../shared/http/response';
import { logger } from '../shared/logger';
import { countIngested, ingestionMetrics } from '../shared/metrics';
import { ingestProfiles } from './core';
import { validProfilesBody } from './schema';

// A profile's records apply in stream order, so a refused one must not land after the next.
const writer = new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar), defaultRetryPolicy, { keepKeyOrder: true });
const identity = new AppIdentityKeyring(new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)), secretStoreFromEnv());
const ingest = ingestProfiles({
  writer,
  identity,
  pushEndpoints: pushEndpointPolicy(optionalEnv(pushSending.endpointHostsEnvVar, '')),
  newId: randomUUID,
  now: () => new Date(),
});

export const handler = jsonApi({
  scopes: ['server', 'browser'],
  validate: validProfilesBody,
  maxBytes: maxBodyBytesOf('IngestProfiles'),
})
  .use(ingestionMetrics())
  .handler(async (event, context) => {
    const receipt = await ingest(event.body, context.principal.appId, context.principal.scope);
    countIngested(receipt);
    logger.info('Profiles ingested', { app_id: context.principal.appId, records: event.body.length, failed: receipt.FailedRecordCount });
    return json(200, receipt);
  });
