/** GET /api/segments/{segment_id}/members, made from its ports: handler.ts passes the container's, a test its fakes. */
import type { SegmentPorts } from '../../back-office/segments';
import { queryApi, type KeyPorts } from '../../http/json-api';
import { json } from '../../http/response';
import { listSegmentMembers } from './core';
import { validSegmentMembersQuery } from './schema';

export type ListSegmentMembersHandlerPorts = KeyPorts & Pick<SegmentPorts, 'segments'>;

export function makeListSegmentMembersHandler(ports: ListSegmentMembersHandlerPorts) {
  const list = listSegmentMembers(ports);
  return queryApi({ scopes: ['server'], validate: validSegmentMembersQuery, keys: ports.keys }).handler(async (event, context) =>
    json(200, await list(context.principal.appId, event.pathParameters?.segment_id ?? '', event.queryStringParameters)),
  );
}
