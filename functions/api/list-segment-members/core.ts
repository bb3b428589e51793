/** A segment's members, a page at a time behind an opaque cursor; an archived segment is not found. */
import { segmentMemberIds, type SegmentPorts } from '../../back-office/segments';
import { Forbidden } from '../../domain/errors';
import type { SegmentMembersQuery } from './schema';

export function listSegmentMembers(ports: Pick<SegmentPorts, 'segments'>) {
  const members = segmentMemberIds(ports);
  return async (callerAppId: string, segmentId: string, query: SegmentMembersQuery) => {
    if (query.app_id !== undefined && query.app_id !== callerAppId) throw new Forbidden();
    const page = await members(callerAppId, segmentId, { limit: query.limit === undefined ? undefined : Number(query.limit), cursor: query.cursor });
    return { segment_id: segmentId, ...page };
  };
}
