/** GET /api/segments, made from its ports: handler.ts passes the container's, a test its fakes. */
import type { SegmentPorts } from '../../back-office/segments';
import { queryApi, type KeyPorts } from '../../http/json-api';
import { json } from '../../http/response';
import { listSegmentsForKey } from './core';
import { validSegmentsQuery } from './schema';

export type ListSegmentsHandlerPorts = KeyPorts & Pick<SegmentPorts, 'segments'>;

export function makeListSegmentsHandler(ports: ListSegmentsHandlerPorts) {
  const list = listSegmentsForKey(ports);
  return queryApi({ scopes: ['server'], validate: validSegmentsQuery, keys: ports.keys }).handler(async (event, context) =>
    json(200, await list(context.principal.appId, event.queryStringParameters)),
  );
}
