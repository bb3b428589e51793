import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, jest, test } from '@jest/globals';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { makeTrackClickHandler } from '../../../functions/api/track-click/make-handler';
import { logger } from '../../../functions/runtime/logger';
import { MemoryAffiliateStore, MemoryClickClaims, MemoryLinkStore } from '../../support/affiliates';
import { apiEvent, asProxyHandler, context, type ProxyHandler } from '../../support/lambda';
import { MemoryStream } from '../../support/memory-stream';

const link = {
  link_id: 'Qx7RmT2vLp9K',
  owner: 'app_1#aff_1',
  app_id: 'app_1',
  affiliate_id: 'aff_1',
  name: 'Spring',
  landing_url: 'https://www.casino.example/welcome?lang=en',
  created_at: '2026-11-01T00:00:00.000Z',
};
const NOW = new Date('2026-11-21T10:00:00.000Z');

let links: MemoryLinkStore;
let claims: MemoryClickClaims;
let stream: MemoryStream;
let handler: ProxyHandler;
beforeEach(async () => {
  links = new MemoryLinkStore();
  await links.create(link);
  const affiliates = new MemoryAffiliateStore();
  await affiliates.register({
    app_id: 'app_1',
    affiliate_id: 'aff_1',
    email: 'ada@example.com',
    username: 'ada',
    first_name: 'Ada',
    last_name: 'Lovelace',
    password_hash: 'x',
    created_at: '2026-11-01T00:00:00.000Z',
  });
  claims = new MemoryClickClaims();
  stream = new MemoryStream();
  handler = asProxyHandler(makeTrackClickHandler({ links, affiliates, claims, writer: stream, newId: randomUUID, now: () => NOW }));
});

afterEach(() => void jest.restoreAllMocks());

/** A browser's GET of a click address, as API Gateway hands it over. */
function clickEvent(path: string, options: { headers?: Record<string, string>; domainName?: string; stagePath?: string } = {}): APIGatewayProxyEvent {
  const event = apiEvent({ method: 'GET', path, headers: { 'User-Agent': 'Mozilla/5.0 (Test)', Host: '127.0.0.1:3000', ...options.headers } });
  const linkId = /^\/t\/([^/?]*)/.exec(path)?.[1];
  return {
    ...event,
    resource: '/t/{link_id}',
    pathParameters: linkId === undefined ? null : { link_id: decodeURIComponent(linkId) },
    requestContext: {
      ...event.requestContext,
      ...(options.domainName ? { domainName: options.domainName } : {}),
      path: options.stagePath ?? event.requestContext.path,
      identity: { ...event.requestContext.identity, sourceIp: '203.0.113.7' },
    },
  };
}
const click = (path: string, options?: Parameters<typeof clickEvent>[1]) => handler(clickEvent(path, options), context('TrackClick'));
const streamed = () => stream.envelopes();

describe('GET /t/{link_id} handler', () => {
  test("answers 302 to the landing URL with the affiliate's parameters, uncacheable, sending no Referer on", async () => {
    const response = await click('/t/Qx7RmT2vLp9K?urm_aff=spring-promo&next=https://evil.example/');

    expect(response.statusCode).toBe(302);
    expect(response.headers?.Location).toBe('https://www.casino.example/welcome?lang=en&urm_aff_id=aff_1&urm_aff_link_id=Qx7RmT2vLp9K&urm_aff=spring-promo');
    expect(response.headers?.['Cache-Control']).toBe('no-store');
    expect(response.headers?.['Referrer-Policy']).toBe('no-referrer');
    expect(response.body).toBe('');
  });

  test('claims the click for 24 hours, then puts one click record', async () => {
    await click('/t/Qx7RmT2vLp9K');

    expect(claims.attempts).toBe(1);
    const [[key, expiresAt]] = [...claims.claims];
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(expiresAt - NOW.getTime()).toBe(24 * 60 * 60 * 1000);
    expect(streamed().map((envelope) => [envelope.kind, envelope.record.link_id, envelope.record.affiliate_id])).toEqual([['click', 'Qx7RmT2vLp9K', 'aff_1']]);
  });

  test('sets the visitor cookie HttpOnly, SameSite=Lax, for a year, on the click path only; not Secure on the loopback host', async () => {
    const response = await click('/t/Qx7RmT2vLp9K');

    expect(response.headers?.['Set-Cookie']).toMatch(/^urm_v=[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{22}; Path=\/t\/; Max-Age=31536000; HttpOnly; SameSite=Lax$/);
  });

  test('sets the cookie Secure, on the path under the API stage, in AWS', async () => {
    const response = await click('/t/Qx7RmT2vLp9K', { domainName: 'abc123.execute-api.eu-west-1.amazonaws.com', stagePath: '/v1/t/Qx7RmT2vLp9K' });

    expect(response.headers?.['Set-Cookie']).toMatch(/; Path=\/v1\/t\/; Max-Age=31536000; HttpOnly; SameSite=Lax; Secure$/);
  });

  test('a second click with the cookie it was given is not counted, and sets no new cookie', async () => {
    const first = await click('/t/Qx7RmT2vLp9K');
    const cookie = String(first.headers?.['Set-Cookie']).split(';')[0];

    const second = await click('/t/Qx7RmT2vLp9K', { headers: { Cookie: cookie, 'User-Agent': 'Another agent' } });

    expect(second.statusCode).toBe(302);
    expect(second.headers?.['Set-Cookie']).toBeUndefined();
    // The same claim, asked for twice: held by the first click.
    expect([claims.attempts, claims.claims.size]).toEqual([2, 1]);
    expect(streamed()).toHaveLength(1);
  });

  test('answers 404 with a page for a link that does not exist, writing nothing and reflecting nothing', async () => {
    const response = await click('/t/ZZZZZZZZZZZZ?urm_aff=%3Cscript%3E');

    expect(response.statusCode).toBe(404);
    expect(response.headers?.['Content-Type']).toBe('text/html; charset=utf-8');
    expect(response.body).toMatch(/This link does not exist/);
    expect(response.body).not.toMatch(/ZZZZZZZZZZZZ|script/i);
    expect(response.headers?.['Set-Cookie']).toBeUndefined();
    expect([claims.attempts, stream.writes.length]).toEqual([0, 0]);
  });

  test('answers 404 for an id of the wrong shape without reading the links table', async () => {
    const response = await click('/t/%3Cimg%20src%3Dx%3E');

    expect(response.statusCode).toBe(404);
    expect(response.body).not.toMatch(/img/);
    expect(links.reads).toBe(0);
  });

  test('still redirects when the stream is down, and logs the link but never the address, agent or cookie', async () => {
    stream.failure = Object.assign(new Error('unavailable'), { name: 'ServiceUnavailable' });
    const logError = jest.spyOn(logger, 'error').mockImplementation(() => {});

    const response = await click('/t/Qx7RmT2vLp9K', { headers: { Cookie: `urm_v=${'c'.repeat(43)}` } });

    expect(response.statusCode).toBe(302);
    expect(response.headers?.Location).toMatch(/urm_aff_id=aff_1/);
    const logged = JSON.stringify(logError.mock.calls);
    expect(logged).toMatch(/Click not counted/);
    expect(logged).toMatch(/Qx7RmT2vLp9K/);
    expect(logged).not.toMatch(/203\.0\.113\.7|Mozilla|c{43}/);
  });
});
