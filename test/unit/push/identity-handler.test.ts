import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, test } from '@jest/globals';
import { AppIdentityKeyring } from '../../../functions/adapters/identity-keyring';
import { makeIngestProfilesHandler } from '../../../functions/api/ingest-profiles/make-handler';
import { identitySecretName, profileIdProof } from '../../../functions/domain/identity';
import { pushEndpointPolicy } from '../../../functions/domain/push';
import { AppOrigins } from '../../../functions/http/cors';
import { MemoryAppStore } from '../../support/affiliates';
import { keyResolverOf } from '../../support/settings';
import { apiEvent, asProxyHandler, context, type ProxyHandler } from '../../support/lambda';
import { MemoryStream } from '../../support/memory-stream';
import { MemorySecretStore } from '../../support/secrets';

const site = 'https://play.example.com';
const secret = 'urm_identity_unit-test-secret';

let stream: MemoryStream;
let secrets: MemorySecretStore;
let profiles: ProxyHandler;
beforeEach(() => {
  stream = new MemoryStream();
  secrets = new MemorySecretStore({ [identitySecretName('app_1')]: secret });
  const apps = new MemoryAppStore([{ app_id: 'app_1', name: 'a', created_at: '', site_origins: [site] }]);
  profiles = asProxyHandler(
    makeIngestProfilesHandler({
      keys: keyResolverOf({
        'browser-key': { app_id: 'app_1', scope: 'browser', key_id: 'k1' },
        'server-key': { app_id: 'app_1', scope: 'server', key_id: 'k2' },
      }),
      origins: new AppOrigins(apps),
      writer: stream,
      identity: new AppIdentityKeyring(apps, secrets),
      pushEndpoints: pushEndpointPolicy(''),
      newId: randomUUID,
      now: () => new Date(),
    }),
  );
});

const record = (profileId: string, fields: Record<string, unknown> = {}) => ({
  app_id: 'app_1',
  profile_id: profileId,
  urm_date_time: '2026-11-21T10:00:00Z',
  urm_set: { urm_receives_notifications: false },
  ...fields,
});
const post = (key: string, body: unknown) =>
  profiles(
    apiEvent({
      method: 'POST',
      path: '/profiles?app_id=app_1',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'x-api-key': key, Origin: site },
      body: JSON.stringify(body),
    }),
    context(),
  );
const streamed = () => stream.envelopes().map((envelope) => envelope.record);

describe('POST /profiles with a server key', () => {
  test('needs no proof and reads no secret; a proof it sends is dropped too', async () => {
    const response = await post('server-key', [record('player-7'), record('player-8', { urm_profile_id_hash: 'ab'.repeat(32) })]);

    expect(response.statusCode).toBe(200);
    expect(secrets.reads).toEqual([]);
    expect(streamed().map((written) => Object.keys(written).includes('urm_profile_id_hash'))).toEqual([false, false]);
  });
});

describe('POST /profiles with a browser key, for a known profile', () => {
  test("without a proof: 403 Forbidden after reading the application's secret, and nothing goes on the stream", async () => {
    const response = await post('browser-key', [record('player-42')]);

    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body)).toEqual({ message: 'Forbidden' });
    expect(secrets.reads).toEqual([identitySecretName('app_1')]);
    expect(stream.writes).toEqual([]);
  });

  test('with its proof: written, and the proof never reaches the stream', async () => {
    const response = await post('browser-key', [record('player-42', { urm_profile_id_hash: profileIdProof(secret, 'player-42') })]);

    expect(response.statusCode).toBe(200);
    expect(streamed()).toEqual([expect.not.objectContaining({ urm_profile_id_hash: expect.anything() })]);
    expect(streamed()[0].profile_id).toBe('player-42');
  });
});
