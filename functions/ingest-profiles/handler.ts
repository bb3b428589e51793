import { randomUUID } from 'node:crypto';
import { maxBodyBytesOf } from '../shared/manifest/operations';
import { ingestStream, pushSending } from '../shared/manifest/resources';
import { KinesisRecordWriter } from '../shared/adapters/kinesis-record-writer';
import { kinesis } from '../shared/clients';
import { optionalEnv, requireEnv } from '../shared/config';
import { pushEndpointPolicy } from '../shared/domain/push';
import { compileValidator } from '../shared/domain/validation';
import { jsonApi } from '../shared/http/json-api';
import { json } from '../shared/http/response';
import { logger } from '../shared/logger';
import { ingestProfiles } from './core';
import { profilesBodySchema, type ProfileRecord } from './schema';

const writer = new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar));
const ingest = ingestProfiles({
  writer,
  pushEndpoints: pushEndpointPolicy(optionalEnv(pushSending.endpointHostsEnvVar, '')),
  newId: randomUUID,
  now: () => new Date(),
});

export const handler = jsonApi({
  scopes: ['server', 'browser'],
  validate: compileValidator<ProfileRecord[]>(profilesBodySchema),
  maxBytes: maxBodyBytesOf('IngestProfiles'),
}).handler(async (event, context) => {
  const receipt = await ingest(event.body, context.principal.appId, context.principal.scope);
  logger.info('Profiles ingested', { app_id: context.principal.appId, records: event.body.length, failed: receipt.FailedRecordCount });
  return json(200, receipt);
});
