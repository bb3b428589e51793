/** The segments routes (segments/routes.ts) over the back office's use cases, made from their ports. */
import { archiveSegment, createSegment, editSegment, getSegment, listSegments, type SegmentPorts } from '../../back-office/segments';
import { segmentCsv, segmentMembers } from '../../back-office/segment-members';
import { consoleActor } from '../../http/console-auth';
import { answer, type Implementations } from '../route';
import type { routes } from './routes';

export type SegmentsPorts = SegmentPorts;

const segmentIdOf = (path: { segment_id?: string }) => path.segment_id ?? '';

export function segmentsHandlers(ports: SegmentsPorts) {
  const list = listSegments(ports);
  const read = getSegment(ports);
  const create = createSegment(ports);
  const edit = editSegment(ports);
  const archive = archiveSegment(ports);
  const members = segmentMembers(ports);
  const csv = segmentCsv(ports);
  return {
    ConsoleListSegments: async ({ identity, query }) => answer(200, { segments: await list(identity.appId, { archived: query.archived === 'true' }) }),

    ConsoleGetSegment: async ({ identity, path }) => answer(200, { segment: await read(identity.appId, segmentIdOf(path)) }),

    ConsoleCreateSegment: async ({ identity, body }) => answer(201, { segment: await create(identity.appId, consoleActor(identity), body) }),

    ConsoleEditSegment: async ({ identity, path, body }) =>
      answer(200, { segment: await edit(identity.appId, consoleActor(identity), segmentIdOf(path), body) }),

    ConsoleArchiveSegment: async ({ identity, path }) => answer(200, { segment: await archive(identity.appId, consoleActor(identity), segmentIdOf(path)) }),

    ConsoleSegmentMembers: async ({ identity, path, query }) =>
      answer(
        200,
        await members(identity.appId, segmentIdOf(path), { limit: query.limit === undefined ? undefined : Number(query.limit), cursor: query.cursor }),
      ),

    ConsoleSegmentMembersCsv: async ({ identity, path, query }) => {
      const file = await csv(identity.appId, segmentIdOf(path), { cursor: query.cursor });
      const next: Record<string, string> = file.next_cursor
        ? { Link: `</console/api/segments/${encodeURIComponent(segmentIdOf(path))}/members.csv?cursor=${encodeURIComponent(file.next_cursor)}>; rel="next"` }
        : {};
      return {
        statusCode: 200,
        headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${file.file_name}"`, ...next },
        body: file.csv,
      };
    },
  } satisfies Implementations<typeof routes>;
}
