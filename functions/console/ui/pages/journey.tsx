/**
 * One journey: what starts it and who may enter, its steps in words with how
 * many players are at each now, its versions, and the changes an editor
 * makes (edit, publish, pause, resume, archive). Its money is on the results
 * page (/results/journey/<id>).
 */
import { useLocation } from 'preact-iso';
import type { ConsoleAnswer } from '../../answers';
import { type Column, DataTable } from '../../../ui/design/data-table';
import { ConfirmButton } from '../../../ui/design/dialog';
import { type Kpi, KpiCards } from '../../../ui/design/kpi';
import { Alert, Card, PageHeader } from '../../../ui/design/page';
import { Visible, When } from '../../../ui/design/value';
import { FormFailure, useChange } from '../actions';
import { getJson, postJson } from '../api';
import { ErrorNote, Loading } from '../components';
import { journeyOutline, stepSentence, stepTypeNames } from '../journey-sentences';
import { useSession } from '../session';
import { useApi } from '../use-api';
import { journeyPath, JourneyStatus, stepAnchor } from './journeys';
import { SentenceTree } from './segment';

type Journey = ConsoleAnswer<'ConsoleGetJourney'>['journey'];
type Version = Journey['versions'][number];

export const resultsPath = (journeyId: string) => `/results/journey/${encodeURIComponent(journeyId)}`;

const players = (count: number) => `${count.toLocaleString('en-GB')} player${count === 1 ? '' : 's'}`;

function Outline({ journey }: { journey: Journey }) {
  return (
    <Card title="How it starts">
      <dl class="pairs">
        {journeyOutline(journey.definition).map((line) => (
          <div key={line.label}>
            <dt>{line.label}</dt>
            <dd>
              {line.text}
              {line.condition && (
                <ul class="condition-sentences">
                  <SentenceTree sentence={line.condition} />
                </ul>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

function Steps({ journey }: { journey: Journey }) {
  const here = new Map(journey.occupancy.filter((row) => row.version === journey.version).map((row) => [row.step_id, row.players]));
  const older = journey.occupancy.filter((row) => row.version !== journey.version && row.players > 0);
  return (
    <Card title="Steps">
      <ol class="journey-steps">
        {journey.definition.steps.map((step, i) => {
          const sentence = stepSentence(step);
          const count = here.get(step.id) ?? 0;
          return (
            <li key={step.id} id={stepAnchor(step.id)} class="journey-step" data-type={step.type}>
              <div class="journey-step-head">
                <span class="journey-step-number" aria-hidden="true">
                  {i + 1}
                </span>
                <span class="journey-step-type">{stepTypeNames[step.type]}</span>
                <code class="journey-step-id">{step.id}</code>
                {i === 0 && <span class="badge tone-accent">Starts here</span>}
                <span class={count > 0 ? 'journey-step-count busy' : 'journey-step-count'}>{players(count)} here now</span>
              </div>
              <p class="journey-step-text">{sentence.text}</p>
              {sentence.condition && (
                <ul class="condition-sentences">
                  <SentenceTree sentence={sentence.condition} />
                </ul>
              )}
              <ul class="journey-step-ways">
                {sentence.then.length === 0 && step.type !== 'exit' && <li class="muted">The journey ends here.</li>}
                {sentence.then.map((way, j) => (
                  <li key={j}>
                    {way.when && <span class="journey-way-when">{way.when}</span>}
                    {way.to ? (
                      <>
                        {'→ '}
                        <a href={`#${stepAnchor(way.to)}`}>{way.to}</a>
                      </>
                    ) : (
                      '→ the journey ends'
                    )}
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ol>
      {older.length > 0 && (
        <p class="muted journey-older">
          Still in older versions:{' '}
          {older.map((row, i) => (
            <span key={`${row.version}/${row.step_id}`}>
              {i > 0 && ', '}
              {players(row.players)} at {row.step_id} (version {row.version})
            </span>
          ))}
          .
        </p>
      )}
    </Card>
  );
}

const versionColumns = (current: number): readonly Column<Version>[] => [
  {
    id: 'version',
    header: 'Version',
    value: (version) => version.version,
    cell: (version) => (
      <span class="nowrap">
        {version.version}
        {version.version === current && <span class="badge tone-accent">current</span>}
      </span>
    ),
    rowHeader: true,
    required: true,
  },
  {
    id: 'created_at',
    header: 'Made',
    value: (version) => version.created_at,
    cell: (version) => (
      <span class="nowrap">
        <When at={version.created_at} />
      </span>
    ),
  },
  // Hidden at first: an address is long, and the line under the table names who changed it last.
  { id: 'created_by', header: 'By', value: (version) => version.created_by ?? '', hidden: true },
  { id: 'players_now', header: 'In it now', value: (version) => version.players_now, numeric: true },
];

function Actions({ journey, onChanged }: { journey: Journey; onChanged: (journey?: Journey) => void }) {
  const { busy, failed, run } = useChange('Your role may not change journeys.');
  const path = `/journeys/${encodeURIComponent(journey.journey_id)}`;
  const act = (action: 'publish' | 'pause' | 'resume' | 'archive', done: string) =>
    run(
      action,
      () => postJson<ConsoleAnswer<'ConsolePublishJourney'>>(`${path}/${action}`),
      (answer) => {
        onChanged(answer.journey);
        return done;
      },
    );
  return (
    <div class="journey-actions">
      <div class="cluster">
        <a class="button" href={`${journeyPath(journey.journey_id)}/edit`}>
          Edit
        </a>
        {journey.status === 'draft' && (
          <button
            type="button"
            class="primary"
            onClick={() => void act('publish', `Journey “${journey.name}” is live.`)}
            aria-busy={busy === 'publish'}
            disabled={busy !== undefined}
          >
            Publish
          </button>
        )}
        {journey.status === 'live' && (
          <button
            type="button"
            onClick={() => void act('pause', `Journey “${journey.name}” paused.`)}
            aria-busy={busy === 'pause'}
            disabled={busy !== undefined}
          >
            Pause
          </button>
        )}
        {journey.status === 'paused' && (
          <button
            type="button"
            class="primary"
            onClick={() => void act('resume', `Journey “${journey.name}” resumed.`)}
            aria-busy={busy === 'resume'}
            disabled={busy !== undefined}
          >
            Resume
          </button>
        )}
        <ConfirmButton
          label="Archive"
          title={`Archive ${journey.name}?`}
          confirmLabel="Archive journey"
          onConfirm={() => void act('archive', `Journey “${journey.name}” archived.`)}
          busy={busy === 'archive'}
        >
          <p>No player enters it any more and players in it stop where they are. It cannot be published again; its results stay.</p>
        </ConfirmButton>
      </div>
      <FormFailure failure={failed()} not="Not changed" />
    </div>
  );
}

const statusNotes: Record<Journey['status'], string> = {
  draft: 'a draft: nobody enters it until it is published',
  live: 'live: players enter it as they qualify',
  paused: 'paused: nobody enters it, and players in it wait where they are',
  archived: 'archived',
};

export function JourneyPage({ id }: { id: string }) {
  const { role } = useSession();
  const { route } = useLocation();
  const loaded = useApi(() => getJson<ConsoleAnswer<'ConsoleGetJourney'>>(`/journeys/${encodeURIComponent(id)}`), id);
  const journey = loaded.data?.journey;
  const trail = [{ label: 'Journeys', href: '/console/journeys' }, { label: journey ? journey.name : <Visible text={id} /> }];
  if (loaded.error?.status === 404)
    return (
      <>
        <PageHeader trail={trail} title={<Visible text={id} />} />
        <Alert tone="danger">There is no journey with this id in this application.</Alert>
      </>
    );
  const kpis: Kpi[] = journey
    ? [
        {
          label: 'In the journey now',
          value: journey.players_now.toLocaleString('en-GB'),
          note: 'players, in every version',
          key: true,
          id: 'journey-players-now',
        },
        { label: 'Status', value: <JourneyStatus status={journey.status} />, note: statusNotes[journey.status] },
        { label: 'Version', value: String(journey.version), note: journey.versions.length > 1 ? `${journey.versions.length} versions` : 'the first' },
      ]
    : [];
  return (
    <>
      <PageHeader
        trail={trail}
        title={journey ? journey.name : <Visible text={id} />}
        subtitle={
          journey && (
            <span class="journey-summary">
              <JourneyStatus status={journey.status} />
              <code>{journey.journey_id}</code>
              <a href={resultsPath(journey.journey_id)}>Results</a>
            </span>
          )
        }
        actions={
          journey &&
          role !== 'viewer' &&
          journey.status !== 'archived' && (
            <Actions journey={journey} onChanged={(changed) => (changed?.status === 'archived' ? route('/console/journeys') : loaded.reload())} />
          )
        }
      />
      {loaded.error && <ErrorNote error={loaded.error} />}
      {!journey && loaded.loading && <Loading what="the journey" />}
      {journey && (
        <div class="journey-page">
          {journey.status === 'archived' && (
            <Alert tone="warning" title="Archived. ">
              Nobody enters this journey any more, and it cannot be changed.
            </Alert>
          )}
          <KpiCards label="Journey figures" kpis={kpis} />
          <div class="journey-columns">
            <Steps journey={journey} />
            <div class="journey-side">
              <Outline journey={journey} />
              <Card title="Versions">
                <DataTable
                  label={`Versions of ${journey.name}`}
                  rows={journey.versions}
                  columns={versionColumns(journey.version)}
                  rowId={(version) => String(version.version)}
                  empty="No versions."
                />
                <p class="muted journey-changed">
                  Last changed <When at={journey.updated_at} />
                  {journey.updated_by && (
                    <>
                      {' '}
                      by <span class="break">{journey.updated_by}</span>
                    </>
                  )}
                  . Players keep the version they entered.
                </p>
              </Card>
            </div>
          </div>
        </div>
      )}
    </>
  );
}
