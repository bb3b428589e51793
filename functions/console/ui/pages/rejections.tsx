/**
 * Rejections: the records the consumers refused to apply (kept 14 days),
 * newest first, paged, each with the reason and the record as received
 * (its fields as values, or its text when it was cut), so an integrator's
 * mistake can be found and the record sent again, fixed.
 */
import { useState } from 'preact/hooks';
import type { ConsoleAnswer } from '../../answers';
import { Badge } from '../../../ui/design/badge';
import { type Column, DataTable } from '../../../ui/design/data-table';
import { PageHeader } from '../../../ui/design/page';
import { Value, Visible, When } from '../../../ui/design/value';
import { getJson } from '../api';
import { ErrorNote } from '../components';
import { useApi } from '../use-api';
import { playerPath } from './players';

export const REJECTION_PAGE_SIZE = 50;

type Rejection = ConsoleAnswer<'ConsoleListRejections'>['rejections'][number];

/** The record's fields when it is a JSON object; undefined when it is not (a record cut to fit is shown as stored). */
export function recordFields(record: string): [string, unknown][] | undefined {
  try {
    const parsed = JSON.parse(record) as unknown;
    // Not app_id: it is the console's own application.
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? Object.entries(parsed).filter(([name]) => name !== 'app_id') : undefined;
  } catch {
    return undefined;
  }
}

/** The record as JSON, indented when it parses (a cut record is shown as stored). */
function recordText(record: string): string {
  try {
    return JSON.stringify(JSON.parse(record), null, 2);
  } catch {
    return record;
  }
}

/** Folded: its kind and insert id. Open: its fields as values, then the JSON as sent, to copy, fix and send again. */
function Record({ rejection }: { rejection: Rejection }) {
  const fields = recordFields(rejection.record);
  return (
    <details class="record">
      <summary>
        <Badge tone="neutral">{rejection.kind}</Badge> <code>{rejection.urm_insert_id}</code>
      </summary>
      {fields && (
        <dl class="pairs record-fields">
          {fields.map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>
                <Value value={value} />
              </dd>
            </div>
          ))}
        </dl>
      )}
      <p class="record-label">As sent{rejection.record_truncated ? ', cut to fit: the record was longer' : ''}</p>
      <pre>{recordText(rejection.record)}</pre>
    </details>
  );
}

const columns: readonly Column<Rejection>[] = [
  { id: 'received_at', header: 'Received', value: (r) => r.received_at, cell: (r) => <When at={r.received_at} /> },
  {
    id: 'profile_id',
    header: 'Player',
    value: (r) => r.profile_id,
    cell: (r) => (
      <a href={playerPath(r.profile_id)} class="break">
        <Visible text={r.profile_id} />
      </a>
    ),
    rowHeader: true,
    required: true,
  },
  { id: 'record', header: 'Record', value: (r) => r.kind, cell: (r) => <Record rejection={r} /> },
  { id: 'reason', header: 'Reason', value: (r) => r.reason, cell: (r) => <span class="reason">{r.reason}</span>, required: true },
];

export function RejectionsPage() {
  const [cursor, setCursor] = useState<string | undefined>();
  const page = useApi(() => getJson<ConsoleAnswer<'ConsoleListRejections'>>('/rejections', { cursor, limit: REJECTION_PAGE_SIZE }), cursor ?? '');
  return (
    <>
      <PageHeader
        title="Rejections"
        subtitle={
          <>
            Records accepted by the API (<code>200</code>) that the service then could not apply, newest first, kept 14 days. Fix the cause and send the record
            again with a new <code>urm_insert_id</code>.
          </>
        }
      />
      <DataTable
        label="Rejected records"
        rows={page.data?.rejections}
        columns={columns}
        rowId={(r) => `${r.received_at}#${r.shard}#${r.seq}`}
        loading={page.loading}
        error={page.error && <ErrorNote error={page.error} />}
        empty="No rejected records in the last 14 days."
        paging={
          page.data && {
            count: page.data.rejections.length,
            noun: 'rejected record',
            next: page.data.next_cursor,
            atFirst: cursor === undefined,
            onNext: setCursor,
            onFirst: () => setCursor(undefined),
          }
        }
      />
    </>
  );
}
