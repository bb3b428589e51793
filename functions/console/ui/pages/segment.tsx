/**
 * One segment: its condition in words (and as JSON), its size, how far the
 * backfill has got, a preview of its members with their money, the CSV, and
 * the changes an editor makes (edit, archive).
 */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { ConsoleAnswer } from '../../answers';
import { type Column, DataTable } from '../../../ui/design/data-table';
import { ConfirmButton } from '../../../ui/design/dialog';
import { type Kpi, KpiCards } from '../../../ui/design/kpi';
import { Alert, Card, PageHeader } from '../../../ui/design/page';
import { Money, Visible, When } from '../../../ui/design/value';
import { FormFailure, useChange } from '../actions';
import { API_ROOT, getJson, postJson } from '../api';
import { ErrorNote, Loading } from '../components';
import { conditionSentence, type Sentence } from '../segment-sentences';
import { useSession } from '../session';
import { useApi } from '../use-api';
import { playerPath } from './players';
import { backfillProgress, SegmentStatus, segmentPath } from './segments';

export const MEMBERS_PAGE_SIZE = 25;

type Segment = ConsoleAnswer<'ConsoleGetSegment'>['segment'];
type Members = ConsoleAnswer<'ConsoleSegmentMembers'>;
type Member = Members['members'][number];

export function SentenceTree({ sentence }: { sentence: Sentence }) {
  return (
    <li>
      <span class={sentence.parts ? 'combinator' : undefined}>{sentence.text}</span>
      {sentence.parts && (
        <ul>
          {sentence.parts.map((part, i) => (
            <SentenceTree key={i} sentence={part} />
          ))}
        </ul>
      )}
    </li>
  );
}

function memberColumns(currency: string): readonly Column<Member>[] {
  return [
    {
      id: 'name',
      header: 'Name',
      value: (member) => member.name ?? '',
      cell: (member) => <a href={playerPath(member.profile_id)}>{member.name ?? <span class="muted">No name</span>}</a>,
      rowHeader: true,
      required: true,
    },
    {
      id: 'profile_id',
      header: 'Profile id',
      value: (member) => member.profile_id,
      cell: (member) => (
        <a href={playerPath(member.profile_id)} class="break">
          <Visible text={member.profile_id} />
        </a>
      ),
    },
    { id: 'email', header: 'Email', value: (member) => member.email ?? '', cell: (member) => <span class="member-email">{member.email ?? ''}</span> },
    { id: 'deposit_count', header: 'Deposits', value: (member) => member.deposit_count, numeric: true },
    {
      id: 'deposits',
      header: 'Deposited',
      value: (member) => Number(member.deposits),
      cell: (member) => <Money amount={member.deposits} currency={currency} />,
      numeric: true,
    },
    { id: 'ngr', header: 'NGR', value: (member) => Number(member.ngr), cell: (member) => <Money amount={member.ngr} currency={currency} />, numeric: true },
    {
      id: 'last_deposit',
      header: 'Last deposit',
      value: (member) => member.last_deposit?.day ?? '',
      cell: (member) =>
        member.last_deposit ? (
          <span class="nowrap">
            {member.last_deposit.day} · <Money amount={member.last_deposit.amount} currency={currency} />
          </span>
        ) : (
          <span class="muted">never</span>
        ),
    },
    { id: 'entered_at', header: 'Entered', value: (member) => member.entered_at, cell: (member) => <When at={member.entered_at} />, hidden: true },
  ];
}

function Backfill({ segment }: { segment: Segment }) {
  const backfill = segment.backfill;
  if (segment.status !== 'backfilling' || !backfill) return null;
  return (
    <Card title="Backfill">
      <p>
        Existing players are being evaluated against {segment.version > 1 ? `version ${segment.version} of ` : ''}the condition. The segment is usable when
        done: until then its size and members are still growing.
      </p>
      <div class="backfill-progress">
        {backfill.total === null ? (
          <progress aria-label="Backfill progress" />
        ) : (
          <progress aria-label="Backfill progress" max={Math.max(backfill.total, 1)} value={backfill.done} />
        )}
        <span>{backfillProgress(backfill)}</span>
      </div>
      <p class="muted">
        Started <When at={backfill.started_at} />.
      </p>
    </Card>
  );
}

function MembersPreview({ segment }: { segment: Segment }) {
  const [cursor, setCursor] = useState<string>();
  const path = `/segments/${encodeURIComponent(segment.segment_id)}/members`;
  const members = useApi(() => getJson<Members>(path, { limit: MEMBERS_PAGE_SIZE, cursor }), `${segment.segment_id}\n${cursor ?? ''}\n${segment.version}`);
  const csv = `${API_ROOT}/segments/${encodeURIComponent(segment.segment_id)}/members.csv`;
  return (
    <Card title="Members">
      <DataTable
        toolbar={
          segment.status !== 'archived' && (
            <>
              <a class="button small" href={csv} download>
                Download CSV
              </a>
              <small class="muted">
                {segment.size > 10_000
                  ? 'The file holds the first 10,000 members by profile id; npm run admin -- segments export writes them all.'
                  : 'Every member, with name, email and money.'}
              </small>
            </>
          )
        }
        label={`Members of ${segment.name}`}
        rows={members.data?.members}
        columns={memberColumns(members.data?.currency ?? 'EUR')}
        rowId={(member) => member.profile_id}
        loading={members.loading}
        error={members.error && <ErrorNote error={members.error} />}
        empty={
          segment.status === 'archived'
            ? 'An archived segment is no longer kept: it has no members.'
            : segment.status === 'backfilling'
              ? 'No members yet: players who match appear here as the backfill finds them.'
              : 'No player matches the condition now.'
        }
        paging={
          members.data && {
            count: members.data.members.length,
            noun: 'member',
            next: members.data.next_cursor,
            atFirst: cursor === undefined,
            onNext: setCursor,
            onFirst: () => setCursor(undefined),
          }
        }
      />
    </Card>
  );
}

function Actions({ segment, onChanged }: { segment: Segment; onChanged: () => void }) {
  const { busy, failed, run } = useChange('Your role may not change segments.');
  const archive = () =>
    run(
      'archive',
      () => postJson(`/segments/${encodeURIComponent(segment.segment_id)}/archive`),
      () => {
        onChanged();
        return `Segment “${segment.name}” archived.`;
      },
    );
  return (
    <div class="segment-actions">
      <div class="cluster">
        <a class="button" href={`${segmentPath(segment.segment_id)}/edit`}>
          Edit
        </a>
        <ConfirmButton
          label="Archive"
          title={`Archive ${segment.name}?`}
          confirmLabel="Archive segment"
          onConfirm={() => void archive()}
          busy={busy === 'archive'}
        >
          <p>It stops being kept: it shows no members, and journeys and campaigns can no longer use it. Its definition stays in the audit log.</p>
        </ConfirmButton>
      </div>
      <FormFailure failure={failed('archive')} not="Not archived" />
    </div>
  );
}

export function SegmentPage({ id }: { id: string }) {
  const { role } = useSession();
  const { route } = useLocation();
  const segment = useApi(() => getJson<ConsoleAnswer<'ConsoleGetSegment'>>(`/segments/${encodeURIComponent(id)}`), id);
  const s = segment.data?.segment;
  const trail = [{ label: 'Segments', href: '/console/segments' }, { label: s ? s.name : <Visible text={id} /> }];
  if (segment.error?.status === 404)
    return (
      <>
        <PageHeader trail={trail} title={<Visible text={id} />} />
        <p role="alert" class="alert tone-danger">
          There is no segment with this id in this application.
        </p>
      </>
    );
  const kpis: Kpi[] = s
    ? [
        {
          label: 'Members',
          value: s.size.toLocaleString('en-GB'),
          note: s.status === 'backfilling' ? 'still growing: backfilling' : 'now',
          key: true,
          id: 'segment-size',
        },
        { label: 'Status', value: <SegmentStatus segment={{ status: s.status, backfill: null }} />, note: `version ${s.version}` },
      ]
    : [];
  return (
    <>
      <PageHeader
        trail={trail}
        title={s ? s.name : <Visible text={id} />}
        subtitle={s && (s.description || <code>{s.segment_id}</code>)}
        actions={s && role !== 'viewer' && s.status !== 'archived' && <Actions segment={s} onChanged={() => route('/console/segments')} />}
      />
      {segment.error && <ErrorNote error={segment.error} />}
      {!s && segment.loading && <Loading what="the segment" />}
      {s && (
        <div class="segment-page">
          {s.status === 'archived' && (
            <Alert tone="warning" title="Archived. ">
              This segment is no longer kept: it has no members and cannot be changed.
            </Alert>
          )}
          <KpiCards label="Segment figures" kpis={kpis} />
          <Backfill segment={s} />
          <Card title="Condition">
            <ul class="condition-sentences">
              <SentenceTree sentence={conditionSentence(s.condition)} />
            </ul>
            <p class="muted condition-changed">
              Version {s.version}, last changed <When at={s.updated_at} /> by <span class="break">{s.updated_by}</span>.
            </p>
            <details class="condition-json">
              <summary>Show as JSON</summary>
              <pre>
                <code>{JSON.stringify(s.condition, null, 2)}</code>
              </pre>
            </details>
          </Card>
          <MembersPreview segment={s} />
        </div>
      )}
    </>
  );
}
