/**
 * The local stack's own doors (issue 25, item 12): another user of this
 * machine reaches 127.0.0.1 too. The emulators answer only the stack's
 * per-start access key id (kept in the data directory's stack.json, mode
 * 0600, inside a data directory only its owner may enter), and the demo
 * page's helpers answer only requests that carry the page's per-start token.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { GetItemCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { KinesisClient, ListStreamsCommand } from '@aws-sdk/client-kinesis';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { canIsolateNetwork } from '../../lib/local/emulators';
import { localClients } from '../../lib/local/stack';
import { identitySecretName } from '../../functions/domain/identity';
import { localSecretsTable } from '../../functions/manifest/secrets';
import { testStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await testStack();
});

const anyone = { accessKeyId: 'AKIAANYONEATALL00000', secretAccessKey: 'anything' };
const handler = () => new NodeHttpHandler({ connectionTimeout: 2000, requestTimeout: 10_000 });

describe('the emulators', () => {
  // Where DynamoDB Local cannot run in a namespace of its own it listens on every interface, unguarded (README, "The local stack").
  (canIsolateNetwork() ? test : test.skip)('DynamoDB Local refuses credentials other than the stack’s, so the secrets table stays unread', async () => {
    const stranger = new DynamoDBClient({
      endpoint: stack.endpoints.dynamodb_endpoint,
      region: stack.endpoints.region,
      credentials: anyone,
      requestHandler: handler(),
    });

    const read = stranger.send(new GetItemCommand({ TableName: localSecretsTable.localName, Key: { name: { S: identitySecretName(stack.dev.app_id) } } }));

    await expect(read).rejects.toMatchObject({ name: 'UnrecognizedClientException' });
  });

  test('kinesalite refuses credentials other than the stack’s', async () => {
    const stranger = new KinesisClient({
      endpoint: stack.endpoints.kinesis_endpoint,
      region: stack.endpoints.region,
      credentials: anyone,
      requestHandler: handler(),
    });

    await expect(stranger.send(new ListStreamsCommand({}))).rejects.toMatchObject({ name: 'UnrecognizedClientException' });
  });

  test('the stack’s own clients, built from its endpoints, are answered', async () => {
    const { dynamo, kinesis } = localClients(stack.endpoints);

    expect((await dynamo.send(new ListTablesCommand({}))).TableNames).toContain(localSecretsTable.localName);
    expect((await kinesis.send(new ListStreamsCommand({}))).StreamNames?.length).toBeGreaterThan(0);
  });

  test('the access key id is in stack.json, which only its owner may read, in a data directory only its owner may enter', () => {
    expect(statSync(join(stack.dataDir, 'stack.json')).mode & 0o777).toBe(0o600);
    expect(statSync(stack.dataDir).mode & 0o077).toBe(0);
  });
});

describe('the demo page’s helpers', () => {
  const origin = () => new URL(stack.baseUrl).origin;
  const identity = (headers: Record<string, string>) =>
    fetch(`${stack.baseUrl}/demo/identity`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: origin(), ...headers },
      body: JSON.stringify({ profile_id: 'player-42' }),
    });
  /** The token the served page carries, as its script reads it. */
  const pageToken = async () => {
    const page = await (await fetch(`${stack.baseUrl}/`)).text();
    return (JSON.parse(/<script id="urm-demo-config" type="application\/json">(.*?)<\/script>/s.exec(page)![1]) as { demoToken: string }).demoToken;
  };

  test('refuse an identity proof to a request that forges the page’s Origin without the page’s token', async () => {
    expect((await identity({})).status).toBe(403);
    expect((await identity({ 'X-Urm-Demo-Token': 'guessed' })).status).toBe(403);
  });

  test('refuse every helper without the token, even with Sec-Fetch-Site same-origin', async () => {
    const profile = await fetch(`${stack.baseUrl}/demo/profile?profile_id=player-42`, { headers: { 'Sec-Fetch-Site': 'same-origin' } });

    expect(profile.status).toBe(403);
  });

  test('answer the page, which carries the token', async () => {
    const response = await identity({ 'X-Urm-Demo-Token': await pageToken() });

    expect(response.status).toBe(200);
    expect((await response.json()).profile_id).toBe('player-42');
  });
});
