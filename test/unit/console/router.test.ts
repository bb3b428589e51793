/**
 * The console's one function (functions/console/make-handler.ts): every
 * declared route reaches its own chain, anything else is the router's 404 in
 * the console's error shape, and each route's body is bounded by its own
 * declaration.
 */
import { describe, expect, test } from '@jest/globals';
import { describeBytes } from '../../../functions/http/json-body';
import { defaultMaxBodyBytes } from '../../../functions/manifest/body-limits';
import { routes } from '../../../functions/console/routes';
import { consoleRouter } from '../../support/console-router';

/** A route's path with its parameters filled in. */
const concrete = (path: string) => path.replace(/\{\w+\}/g, 'x1');

describe("the console API's router", () => {
  test('answers an unknown path with 404 in the console’s JSON shape, never cached', async () => {
    const api = consoleRouter();

    const response = await api.call('GET', '/console/api/nothing/here');

    expect([response.status, response.body]).toEqual([404, { message: 'Not Found' }]);
    expect(response.headers).toMatchObject({ 'Content-Type': expect.stringMatching(/^application\/json/), 'Cache-Control': 'no-store' });
  });

  test('answers a known path with a method it does not declare with 404', async () => {
    const api = consoleRouter();

    const deleted = await api.call('DELETE', '/console/api/keys');
    const read = await api.call('GET', '/console/api/sign_out');

    expect([deleted.status, deleted.body]).toEqual([404, { message: 'Not Found' }]);
    expect([read.status, read.body]).toEqual([404, { message: 'Not Found' }]);
  });

  test('answers a path parameter that does not percent-decode as an address that does not exist', async () => {
    const api = consoleRouter();

    const response = await api.call('GET', '/console/api/players/%E0%A4%A');

    expect([response.status, response.body]).toEqual([404, { message: 'Not Found' }]);
  });

  test('reaches every declared route: without a session each is 401, not 404', async () => {
    const api = consoleRouter();
    const answers: Record<string, number> = {};

    for (const route of routes) answers[route.id] = (await api.call(route.method, concrete(route.path), { as: null })).status;

    expect(answers).toEqual(Object.fromEntries(routes.map((route) => [route.id, 401])));
  });

  test('declares each route once: one id, one method and path', () => {
    expect(new Set(routes.map((route) => route.id)).size).toBe(routes.length);
    expect(new Set(routes.map((route) => `${route.method} ${route.path}`)).size).toBe(routes.length);
  });

  test('checks CSRF on every state-changing route and on no reading one', () => {
    expect(routes.filter((route) => route.mutates !== (route.method === 'POST')).map((route) => route.id)).toEqual([]);
  });

  for (const route of routes.filter((candidate) => 'body' in candidate || 'maxBodyBytes' in candidate)) {
    const bound = ('maxBodyBytes' in route ? route.maxBodyBytes : undefined) ?? defaultMaxBodyBytes;
    test(`${route.id} refuses a body over its own bound (${describeBytes(bound)}) with 413, once the caller is allowed`, async () => {
      const api = consoleRouter();
      const over = `"${'x'.repeat(bound - 1)}"`;

      const anonymous = await api.call(route.method, concrete(route.path), { as: null, rawBody: over, headers: { 'Content-Type': 'application/json' } });
      const allowed = await api.call(route.method, concrete(route.path), { rawBody: over, headers: { 'Content-Type': 'application/json' } });

      expect(anonymous.status).toBe(401);
      expect([allowed.status, allowed.body]).toEqual([413, { message: `request body must be at most ${describeBytes(bound)}` }]);
    });
  }

  test('refuses a body that is not sent as JSON with 415, and an Accept that excludes JSON with 406', async () => {
    const api = consoleRouter();

    const text = await api.call('POST', '/console/api/keys', { rawBody: '{"scope":"server"}', headers: { 'Content-Type': 'text/plain' } });
    const html = await api.call('POST', '/console/api/keys', { body: { scope: 'server' }, headers: { Accept: 'text/html' } });

    expect([text.status, html.status]).toEqual([415, 406]);
    expect(api.keys.keys).toEqual([]);
  });

  test("refuses a query string its route's schema does not allow with 400 naming it", async () => {
    const api = consoleRouter();

    const response = await api.call('GET', '/console/api/audit?limit=1000&extra=1');

    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual(expect.arrayContaining([expect.stringMatching(/^limit /), 'extra is not allowed']));
  });
});
