import { afterEach, describe, expect, test } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PostbackHttp, type Resolver } from '../../../functions/adapters/postback-http';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

/** A receiver on 127.0.0.1 that records what it was asked. */
async function receiver(answer: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ port: number; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = [];
  const server = createServer((request, response) => {
    requests.push(request);
    answer(request, response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, requests };
}

const rebinding =
  (address: string): Resolver =>
  async () => [{ address, family: 4 }];

describe('postback HTTP', () => {
  test('a GET to an allowed development host returns its status and carries the headers', async () => {
    const target = await receiver((_, response) => response.writeHead(204).end());
    const http = new PostbackHttp({ allowedHosts: ['127.0.0.1'] });

    const response = await http.get(`http://127.0.0.1:${target.port}/pb?e=ftd`, { 'X-Urm-Event-Id': 'ev-1' });

    expect(response).toEqual({ status: 204 });
    expect(target.requests.map((r) => [r.method, r.url, r.headers['x-urm-event-id']])).toEqual([['GET', '/pb?e=ftd', 'ev-1']]);
  });

  test('a host that resolves to a private address is refused before any connection', async () => {
    const target = await receiver((_, response) => response.end());
    // A public-looking name whose DNS answers with the metadata address.
    const http = new PostbackHttp({ allowedHosts: [], resolve: rebinding('169.254.169.254') });

    const response = await http.get('https://tracker.example.com/pb', {});

    expect(response).toEqual({ error: 'refused: tracker.example.com resolves to 169.254.169.254, which is not a public address', unsent: true });
    expect(target.requests).toHaveLength(0);
  });

  test('a name resolving to several addresses is refused when any one is private', async () => {
    const http = new PostbackHttp({
      allowedHosts: [],
      resolve: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '::ffff:10.0.0.1', family: 6 },
      ],
    });

    expect(await http.get('https://tracker.example.com/pb', {})).toEqual({ error: expect.stringContaining('::ffff:10.0.0.1'), unsent: true });
  });

  test('an IP literal in private space is refused at send time too', async () => {
    const http = new PostbackHttp({ allowedHosts: [] });

    expect(await http.get('https://2130706433/pb', {})).toEqual({
      error: expect.stringContaining('private or reserved address (127.0.0.1)'),
      unsent: true,
    });
  });

  test('the connection goes to the address that was checked, not to what the name resolves to later', async () => {
    const target = await receiver((_, response) => response.writeHead(200).end('ok'));
    let lookups = 0;
    // Checked once; a second lookup (a rebinding attack) would answer something else.
    const resolve: Resolver = async () => (++lookups === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.0.0.1', family: 4 }]);
    const http = new PostbackHttp({ allowedHosts: ['receiver.test'], resolve });

    const response = await http.get(`http://receiver.test:${target.port}/pb`, {});

    expect(response).toEqual({ status: 200 });
    expect(lookups).toBe(1);
    expect(target.requests[0].headers.host).toBe(`receiver.test:${target.port}`);
  });

  test('a redirect is not followed: its status is the answer', async () => {
    const elsewhere = await receiver((_, response) => response.end());
    const target = await receiver((_, response) => response.writeHead(302, { location: `http://127.0.0.1:${elsewhere.port}/` }).end());
    const http = new PostbackHttp({ allowedHosts: ['127.0.0.1'] });

    expect(await http.get(`http://127.0.0.1:${target.port}/pb`, {})).toEqual({ status: 302 });
    expect(elsewhere.requests).toHaveLength(0);
  });

  test('a POST carries its body and headers, and answers the status', async () => {
    const bodies: string[] = [];
    const target = await receiver((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      request.on('end', () => {
        bodies.push(text);
        response.writeHead(202).end();
      });
    });
    const http = new PostbackHttp({ allowedHosts: ['127.0.0.1'] });

    const response = await http.post(
      `http://127.0.0.1:${target.port}/hook`,
      { 'content-type': 'application/json', 'X-Urm-Message-Id': 'm-1' },
      '{"amount":"25.50"}',
    );

    expect(response).toEqual({ status: 202 });
    expect(target.requests.map((r) => [r.method, r.url, r.headers['content-type'], r.headers['x-urm-message-id']])).toEqual([
      ['POST', '/hook', 'application/json', 'm-1'],
    ]);
    expect(bodies).toEqual(['{"amount":"25.50"}']);
  });

  test('a connection that is refused surely sent nothing', async () => {
    const closed = await receiver((_, response) => response.end());
    const port = closed.port;
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    const http = new PostbackHttp({ allowedHosts: ['127.0.0.1'] });

    const response = await http.post(`http://127.0.0.1:${port}/hook`, {}, '{}');

    expect(response).toEqual({ error: expect.stringContaining('ECONNREFUSED'), unsent: true });
  });

  test('a receiver that does not answer in time is given up on', async () => {
    const target = await receiver(() => {});
    const http = new PostbackHttp({ allowedHosts: ['127.0.0.1'], timeoutMs: 200 });

    const started = Date.now();
    const response = await http.get(`http://127.0.0.1:${target.port}/pb`, {});

    // Connected: the receiver may have the request, so it is not known to be unsent.
    expect(response).toEqual({ error: 'no answer within 200 ms' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test('an endless body is read no further than the bound', async () => {
    const target = await receiver((_, response) => {
      response.writeHead(200);
      const chunk = Buffer.alloc(1024, 'x');
      const pump = () => {
        while (response.write(chunk)) if (response.destroyed) return;
        response.once('drain', pump);
      };
      pump();
    });
    const http = new PostbackHttp({ allowedHosts: ['127.0.0.1'], maxResponseBytes: 4096, timeoutMs: 2000 });

    expect(await http.get(`http://127.0.0.1:${target.port}/pb`, {})).toEqual({ status: 200 });
  });
});
