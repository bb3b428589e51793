/** Journeys: every journey of the application with its status, its entry in words and how many players are in it now. */
import type { ConsoleAnswer } from '../../answers';
import { Badge, type Tone } from '../../../ui/design/badge';
import { type Column, DataTable } from '../../../ui/design/data-table';
import { PageHeader } from '../../../ui/design/page';
import { When } from '../../../ui/design/value';
import { getJson } from '../api';
import { ErrorNote } from '../components';
import { entryWords } from '../journey-sentences';
import { useSession } from '../session';
import { useApi } from '../use-api';

export const journeyPath = (journeyId: string) => `/console/journeys/${encodeURIComponent(journeyId)}`;
/** A step's anchor on its journey's page. */
export const stepAnchor = (stepId: string) => `step-${stepId}`;

type Journey = ConsoleAnswer<'ConsoleListJourneys'>['journeys'][number];

const statusTones: Record<Journey['status'], Tone> = { draft: 'neutral', live: 'success', paused: 'warning', archived: 'neutral' };
const statusWords: Record<Journey['status'], string> = { draft: 'Draft', live: 'Live', paused: 'Paused', archived: 'Archived' };

export function JourneyStatus({ status }: { status: Journey['status'] }) {
  return <Badge tone={statusTones[status]}>{statusWords[status]}</Badge>;
}

const columns: readonly Column<Journey>[] = [
  {
    id: 'name',
    header: 'Name',
    value: (journey) => journey.name.toLowerCase(),
    cell: (journey) => <a href={journeyPath(journey.journey_id)}>{journey.name}</a>,
    rowHeader: true,
    required: true,
  },
  { id: 'status', header: 'Status', value: (journey) => journey.status, cell: (journey) => <JourneyStatus status={journey.status} /> },
  {
    id: 'players_now',
    header: 'In it now',
    value: (journey) => journey.players_now,
    cell: (journey) => journey.players_now.toLocaleString('en-GB'),
    numeric: true,
  },
  {
    id: 'entry',
    header: 'Entry',
    value: (journey) => entryWords(journey.entry),
    cell: (journey) => <span class="journey-entry">{entryWords(journey.entry)}</span>,
  },
  { id: 'version', header: 'Version', value: (journey) => journey.version, numeric: true },
  { id: 'journey_id', header: 'Id', value: (journey) => journey.journey_id, cell: (journey) => <code>{journey.journey_id}</code>, hidden: true },
  { id: 'updated_at', header: 'Updated', value: (journey) => journey.updated_at, cell: (journey) => <When at={journey.updated_at} /> },
];

export function JourneysPage() {
  const { role } = useSession();
  const list = useApi(() => getJson<ConsoleAnswer<'ConsoleListJourneys'>>('/journeys'), 'journeys');
  return (
    <>
      <PageHeader
        title="Journeys"
        subtitle="Lifecycle messages that start on a player's event, first deposit or segment, wait, branch and send, each step at most once."
        actions={
          role !== 'viewer' && (
            <a class="button primary" href="/console/journeys/new">
              New journey
            </a>
          )
        }
      />
      <DataTable
        label="Journeys"
        rows={list.data?.journeys}
        columns={columns}
        rowId={(journey) => journey.journey_id}
        loading={list.loading}
        error={list.error && <ErrorNote error={list.error} />}
        empty={role === 'viewer' ? 'No journeys yet.' : 'No journeys yet. Make one with “New journey”: pick what starts it, add its steps, then publish it.'}
      />
    </>
  );
}
