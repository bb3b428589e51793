/**
 * The local server keeps no more of a body than the operation's bound plus
 * one byte (functions/manifest/body-limits.ts `maxBodyBytes`), which is all the handler needs
 * to refuse it, and still answers a body over API Gateway's 10 MiB itself.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, test } from '@jest/globals';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { createApiServer, type LocalRoute } from '../../../lib/local/server';
import { maxBodyBytesOf } from '../../../functions/manifest/body-limits';
import { httpOperations } from '../../../functions/manifest/operations';

const operation = httpOperations.find((candidate) => candidate.id === 'SetAffiliate')!;
const bound = maxBodyBytesOf(operation.id);
let received: APIGatewayProxyEvent[] = [];
// The body as bytes: API Gateway (binaryMediaTypes "*/*") hands it over base64.
const bytesOf = (event: APIGatewayProxyEvent) => Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
const route: LocalRoute = {
  functionId: operation.id,
  resource: operation.path,
  method: operation.method,
  maxBodyBytes: bound,
  greedy: false,
  pattern: /^\/api\/set_affiliate$/,
  parameterNames: [],
  handler: async (event) => {
    received.push(event);
    return { statusCode: 200, body: JSON.stringify({ bytes: bytesOf(event).length }) };
  },
};

let baseUrl: string;
const server = createApiServer([route], { log: () => undefined });
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received = [];
});

const post = (body: string | Buffer) => fetch(`${baseUrl}/api/set_affiliate`, { method: 'POST', body: typeof body === 'string' ? body : new Uint8Array(body) });

test('a body within the bound reaches the handler whole, as its bytes', async () => {
  const body = `{"name":"${'é'.repeat(1000)}"}`;

  const response = await post(body);

  expect(response.status).toBe(200);
  expect(received[0].isBase64Encoded).toBe(true);
  expect(bytesOf(received[0]).toString('utf8')).toBe(body);
});

test('bytes that are not UTF-8 reach the handler as sent, not replaced by U+FFFD', async () => {
  const body = Buffer.from([0x7b, 0x22, 0x63, 0x61, 0x66, 0xe9, 0x22, 0x7d]);

  await post(body);

  expect(bytesOf(received[0])).toEqual(body);
});

test('of a body four times the bound, the handler gets the bound plus one byte: enough to refuse it unread', async () => {
  const response = await post('x'.repeat(4 * bound));

  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ bytes: bound + 1 });
});

test('a character cut at the bound still leaves the handler more than the bound', async () => {
  // 'é' is two bytes: the byte after the bound is the first half of one.
  const response = await post(Buffer.concat([Buffer.from('x'.repeat(bound)), Buffer.from('é'.repeat(10))]));

  const { bytes } = (await response.json()) as { bytes: number };
  expect(bytes > bound).toBeTruthy();
});

test("a body over API Gateway's 10 MiB is answered 413 without calling the handler", async () => {
  const response = await post(Buffer.alloc(10 * 1024 * 1024 + 1, 'x'));

  expect(response.status).toBe(413);
  expect(received.length).toBe(0);
});
