/** The routed functions' router (functions/http/router.ts) over @middy/http-router: which handler answers, and the path parameters it gets. */
import { describe, expect, test } from '@jest/globals';
import { NotFound } from '../../../functions/domain/errors';
import { routeRequests } from '../../../functions/http/router';
import type { ApiEvent } from '../../../functions/http/types';
import type { RouteDefinition } from '../../../functions/manifest/routes';
import { apiEvent, context } from '../../support/lambda';

const routes = [
  { id: 'GetPlayer', method: 'GET', path: '/console/api/players/{profile_id}', tables: {} },
  { id: 'ChangePlayer', method: 'POST', path: '/console/api/players/{profile_id}', tables: {} },
  { id: 'Login', method: 'GET', path: '/affiliates/{app_id}/login', tables: {} },
] as const satisfies readonly RouteDefinition[];

/** A router whose handlers answer their route's id and the parameters they got. */
function router() {
  return routeRequests(
    routes,
    (route) => async (event: ApiEvent) => ({ statusCode: 200, body: JSON.stringify({ route: route.id, parameters: event.pathParameters }) }),
    ({ method, path }) => ({ statusCode: 404, body: JSON.stringify({ unknown: `${method} ${path}` }) }),
  );
}

/** An event as API Gateway sends it through a proxy resource: the raw path, and the resource's own parameters decoded. */
function viaProxy(method: string, path: string, resource: string, pathParameters: Record<string, string>) {
  const event = apiEvent({ method, path });
  event.path = path;
  event.resource = resource;
  event.pathParameters = pathParameters;
  return event;
}

describe('the router of a routed function', () => {
  test('answers each declared method and path with its own handler', async () => {
    const route = router();

    const read = await route(viaProxy('GET', '/console/api/players/p1', '/console/api/{proxy+}', { proxy: 'players/p1' }), context());
    const change = await route(viaProxy('POST', '/console/api/players/p1', '/console/api/{proxy+}', { proxy: 'players/p1' }), context());

    expect(JSON.parse(read.body).route).toBe('GetPlayer');
    expect(JSON.parse(change.body).route).toBe('ChangePlayer');
  });

  test('answers an unknown path, or a known path with another method, with the area’s not-found answer', async () => {
    const route = router();

    const unknownPath = await route(viaProxy('GET', '/console/api/nothing', '/console/api/{proxy+}', { proxy: 'nothing' }), context());
    const unknownMethod = await route(viaProxy('DELETE', '/console/api/players/p1', '/console/api/{proxy+}', { proxy: 'players/p1' }), context());

    expect([unknownPath.statusCode, unknownMethod.statusCode]).toEqual([404, 404]);
    expect(JSON.parse(unknownMethod.body).unknown).toBe('DELETE /console/api/players/p1');
  });

  test('percent-decodes the parameters it matches in the raw path', async () => {
    const route = router();

    const answer = await route(viaProxy('GET', '/console/api/players/a%2Fb%20c', '/console/api/{proxy+}', { proxy: 'players/a/b c' }), context());

    expect(JSON.parse(answer.body).parameters.profile_id).toBe('a/b c');
  });

  test('keeps the parameters API Gateway has already decoded as they are', async () => {
    const route = router();

    const answer = await route(viaProxy('GET', '/affiliates/app%25/login', '/affiliates/{app_id}/{proxy+}', { app_id: 'app%', proxy: 'login' }), context());

    expect(JSON.parse(answer.body).parameters.app_id).toBe('app%');
  });

  test('takes a parameter that does not decode for an address that does not exist', async () => {
    const route = router();

    const answer = route(viaProxy('GET', '/console/api/players/%E0%A4%A', '/console/api/{proxy+}', { proxy: 'players/x' }), context());

    await expect(answer).rejects.toBeInstanceOf(NotFound);
  });
});
