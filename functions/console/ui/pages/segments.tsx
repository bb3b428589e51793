/** Segments: every segment of the application with its size and status; a new one from here. */
import type { ConsoleAnswer } from '../../answers';
import { Badge } from '../../../ui/design/badge';
import { type Column, DataTable } from '../../../ui/design/data-table';
import { PageHeader } from '../../../ui/design/page';
import { When } from '../../../ui/design/value';
import { getJson } from '../api';
import { ErrorNote } from '../components';
import { useSession } from '../session';
import { useApi } from '../use-api';

export const segmentPath = (segmentId: string) => `/console/segments/${encodeURIComponent(segmentId)}`;

type Segment = ConsoleAnswer<'ConsoleListSegments'>['segments'][number];

/** `N of M players` (or `N players` while the total is not known yet). */
export function backfillProgress(backfill: NonNullable<Segment['backfill']>): string {
  const done = backfill.done.toLocaleString('en-GB');
  return backfill.total === null ? `${done} players evaluated` : `${done} of ${backfill.total.toLocaleString('en-GB')} players`;
}

/** The status as a badge; while backfilling, how far it has got. */
export function SegmentStatus({ segment }: { segment: Pick<Segment, 'status' | 'backfill'> }) {
  if (segment.status === 'ready') return <Badge tone="success">ready</Badge>;
  if (segment.status === 'archived') return <Badge>archived</Badge>;
  return (
    <span class="segment-status">
      <Badge tone="info">backfilling</Badge>
      {segment.backfill && <span class="muted">{backfillProgress(segment.backfill)}</span>}
    </span>
  );
}

const columns: readonly Column<Segment>[] = [
  {
    id: 'name',
    header: 'Name',
    value: (segment) => segment.name.toLowerCase(),
    cell: (segment) => (
      <span class="segment-name">
        <a href={segmentPath(segment.segment_id)}>{segment.name}</a>
        {segment.description && <small class="muted">{segment.description}</small>}
      </span>
    ),
    rowHeader: true,
    required: true,
  },
  { id: 'size', header: 'Members', value: (segment) => segment.size, cell: (segment) => segment.size.toLocaleString('en-GB'), numeric: true },
  { id: 'status', header: 'Status', value: (segment) => segment.status, cell: (segment) => <SegmentStatus segment={segment} /> },
  { id: 'segment_id', header: 'Id', value: (segment) => segment.segment_id, cell: (segment) => <code>{segment.segment_id}</code>, hidden: true },
  { id: 'updated_at', header: 'Updated', value: (segment) => segment.updated_at, cell: (segment) => <When at={segment.updated_at} /> },
];

export function SegmentsPage() {
  const { role } = useSession();
  const list = useApi(() => getJson<ConsoleAnswer<'ConsoleListSegments'>>('/segments'), 'segments');
  return (
    <>
      <PageHeader
        title="Segments"
        subtitle="Players grouped by a condition on their attributes, events and money, kept up to date as they play."
        actions={
          role !== 'viewer' && (
            <a class="button primary" href="/console/segments/new">
              New segment
            </a>
          )
        }
      />
      <DataTable
        label="Segments"
        rows={list.data?.segments}
        columns={columns}
        rowId={(segment) => segment.segment_id}
        loading={list.loading}
        error={list.error && <ErrorNote error={list.error} />}
        empty={
          role === 'viewer'
            ? 'No segments yet.'
            : 'No segments yet. Make one with “New segment”: name it and write its condition, and its members are found among your players.'
        }
      />
    </>
  );
}
