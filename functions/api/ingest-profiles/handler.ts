import { randomUUID } from 'node:crypto';
import { kinesis } from '../../adapters/clients/kinesis';
import { AppIdentityKeyring } from '../../adapters/identity-keyring';
import { defaultRetryPolicy, KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { secretStoreFromEnv } from '../../adapters/secret-store';
import { appOrigins, appStore, keyResolver } from '../../adapters/stores';
import { pushEndpointPolicy } from '../../domain/push';
import { ingestStream, pushSending } from '../../manifest/resources';
import { optionalEnv, requireEnv } from '../../runtime/config';
import { makeIngestProfilesHandler } from './make-handler';

export const handler = makeIngestProfilesHandler({
  keys: keyResolver(),
  origins: appOrigins(),
  writer: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar), defaultRetryPolicy, { keepKeyOrder: true }),
  identity: new AppIdentityKeyring(appStore(), secretStoreFromEnv()),
  pushEndpoints: pushEndpointPolicy(optionalEnv(pushSending.endpointHostsEnvVar, '')),
  newId: randomUUID,
  now: () => new Date(),
});
