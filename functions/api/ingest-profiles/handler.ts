import { randomUUID } from 'node:crypto';
import { maxBodyBytesOf } from '../../manifest/body-limits';
import { ingestStream, pushSending, tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { AppIdentityKeyring } from '../../adapters/identity-keyring';
import { defaultRetryPolicy, KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { secretStoreFromEnv } from '../../adapters/secret-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { kinesis } from '../../adapters/clients/kinesis';
import { optionalEnv, requireEnv } from '../../runtime/config';
import { pushEndpointPolicy } from '../../domain/push';
import { jsonApi } from '../../http/json-api';
import { json } from '../../http/response';
import { logger } from '../../runtime/logger';
import { countIngested, ingestionMetrics } from '../../runtime/metrics';
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
