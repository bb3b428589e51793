/** The audit log (admins): who did what, to what, when; newest first, paged. */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { ConsoleAnswer } from '../../answers';
import { DataTable, type Column } from '../../../ui/design/data-table';
import { PageHeader } from '../../../ui/design/page';
import { Value, Visible, When } from '../../../ui/design/value';
import { getJson } from '../api';
import { ErrorNote } from '../components';
import { useApi } from '../use-api';

export const AUDIT_PAGE_SIZE = 50;

type Entry = ConsoleAnswer<'ConsoleAudit'>['entries'][number];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A change as the audit records it: `{from, to}`. */
const isChange = (value: unknown): value is { from: unknown; to: unknown } =>
  isRecord(value) && Object.keys(value).length === 2 && 'from' in value && 'to' in value;

/** A value in a detail: a flat map (a money mapping, say) as `name: value` pairs, anything else as Value shows it. */
function DetailValue({ value }: { value: unknown }) {
  if (isRecord(value) && Object.values(value).every((v) => !isRecord(v) && !Array.isArray(v))) {
    const entries = Object.entries(value);
    if (entries.length === 0) return <span class="value-empty">none</span>;
    return (
      <span class="detail-map">
        {entries.map(([name, v], index) => (
          <span key={name}>
            {index > 0 && ', '}
            <Visible text={name} />: <Value value={v} />
          </span>
        ))}
      </span>
    );
  }
  return <Value value={value} />;
}

const FromTo = ({ change }: { change: { from: unknown; to: unknown } }) => (
  <>
    <DetailValue value={change.from} /> → <DetailValue value={change.to} />
  </>
);

/**
 * An entry's details as sentences a person reads: `from → to` for a change,
 * one line a field for `changes`, `name: value` for the rest.
 */
export function Details({ details }: { details: Entry['details'] }) {
  if (!details || Object.keys(details).length === 0) return <span class="value-empty">—</span>;
  if (isChange(details)) return <FromTo change={details} />;
  const lines: { name: string; body: ComponentChildren }[] = [];
  for (const [name, value] of Object.entries(details)) {
    if (name === 'changes' && isRecord(value) && Object.values(value).every(isChange)) {
      for (const [field, change] of Object.entries(value)) lines.push({ name: field, body: <FromTo change={change as { from: unknown; to: unknown }} /> });
    } else lines.push({ name, body: <DetailValue value={value} /> });
  }
  return (
    <ul class="details">
      {lines.map((line) => (
        <li key={line.name}>
          <span class="detail-name">{line.name.replace(/_/g, ' ')}</span> {line.body}
        </li>
      ))}
    </ul>
  );
}

const columns: Column<Entry>[] = [
  {
    id: 'when',
    header: 'When',
    value: (entry) => entry.at,
    cell: (entry) => (
      <span class="nowrap">
        <When at={entry.at} />
      </span>
    ),
    required: true,
  },
  { id: 'who', header: 'Who', value: (entry) => entry.actor.email, cell: (entry) => <Visible text={entry.actor.email} />, required: true },
  { id: 'action', header: 'Action', value: (entry) => entry.action, cell: (entry) => <code class="nowrap">{entry.action}</code>, required: true },
  { id: 'target', header: 'Target', value: (entry) => entry.target, cell: (entry) => <Visible text={entry.target} /> },
  { id: 'details', header: 'Details', cell: (entry) => <Details details={entry.details} /> },
];

export function AuditPage() {
  const [cursor, setCursor] = useState<string | undefined>();
  const audit = useApi(() => getJson<ConsoleAnswer<'ConsoleAudit'>>('/audit', { cursor, limit: AUDIT_PAGE_SIZE }), cursor ?? '');
  return (
    <>
      <PageHeader title="Audit log" subtitle="Every change made in the console or with the command line (shown as “admin command line”), newest first." />
      <DataTable
        label="Audit log"
        rows={audit.data?.entries}
        columns={columns}
        rowId={(entry) => entry.entry_id}
        loading={audit.loading}
        error={audit.error && <ErrorNote error={audit.error} />}
        empty="No entries."
        paging={
          audit.data && {
            count: audit.data.entries.length,
            noun: 'record',
            next: audit.data.next_cursor,
            atFirst: cursor === undefined,
            onNext: setCursor,
            onFirst: () => setCursor(undefined),
          }
        }
      />
    </>
  );
}
