/** The key's application's segments with their sizes (archived ones left out). */
import { listSegments, type SegmentPorts } from '../../back-office/segments';
import { Forbidden } from '../../domain/errors';
import type { SegmentsQuery } from './schema';

export function listSegmentsForKey(ports: Pick<SegmentPorts, 'segments'>) {
  const list = listSegments(ports);
  return async (callerAppId: string, query: SegmentsQuery) => {
    if (query.app_id !== undefined && query.app_id !== callerAppId) throw new Forbidden();
    const segments = await list(callerAppId);
    return {
      segments: segments.map(({ segment_id, name, description, size, status, version, created_at, updated_at }) => ({
        segment_id,
        name,
        description,
        size,
        status,
        version,
        created_at,
        updated_at,
      })),
    };
  };
}
