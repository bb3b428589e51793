/** A player's journeys on their page: each entry, where they are in it (or how it ended), and what it sent them. */
import type { ConsoleAnswer } from '../../answers';
import { Badge, type Tone } from '../../../ui/design/badge';
import { When } from '../../../ui/design/value';
import { getJson } from '../api';
import { ErrorNote, Loading } from '../components';
import { stepTypeNames } from '../journey-sentences';
import { useApi } from '../use-api';
import { journeyPath, stepAnchor } from './journeys';

type PlayerJourney = ConsoleAnswer<'ConsolePlayerJourneys'>['journeys'][number];

const endings: Record<NonNullable<PlayerJourney['done']>['reason'], { words: string; tone: Tone }> = {
  completed: { words: 'Completed', tone: 'neutral' },
  exit_step: { words: 'Exited', tone: 'neutral' },
  converted: { words: 'Converted', tone: 'success' },
  holdout: { words: 'Held out', tone: 'info' },
  step_bound: { words: 'Stopped (too many steps)', tone: 'warning' },
};

const channelWords: Record<string, string> = { email: 'Email', push: 'Push', webhook: 'Webhook' };

export function gotWords(got: PlayerJourney['got'][number]): string {
  const times = got.times > 1 ? ` ×${got.times}` : '';
  if (got.type === 'send') return `${channelWords[got.channel ?? ''] ?? 'Message'} “${got.template_id}”${times}`;
  return `Attributes set at ${got.step_id}${times}`;
}

function Entry({ entry }: { entry: PlayerJourney }) {
  const ending = entry.done ? endings[entry.done.reason] : undefined;
  return (
    <li class="player-journey">
      <div class="player-journey-head">
        <a href={journeyPath(entry.journey_id)}>{entry.name}</a>
        {ending ? <Badge tone={ending.tone}>{ending.words}</Badge> : <Badge tone="accent">In progress</Badge>}
        <span class="muted">version {entry.version}</span>
      </div>
      <p class="player-journey-where">
        {entry.at ? (
          <>
            At{' '}
            <a href={`${journeyPath(entry.journey_id)}#${stepAnchor(entry.at.step_id)}`}>
              <code>{entry.at.step_id}</code>
            </a>
            {entry.at.type && ` (${stepTypeNames[entry.at.type].toLowerCase()})`}
            {entry.at.waiting_until && (
              <>
                {' '}
                until <When at={entry.at.waiting_until} />
              </>
            )}
          </>
        ) : (
          entry.done && (
            <>
              Left <When at={entry.done.at} />
            </>
          )
        )}
        <span class="muted">
          {' '}
          · entered <When at={entry.entered_at} />
        </span>
      </p>
      {entry.got.length > 0 ? (
        <ul class="chips" aria-label={`What ${entry.name} sent`}>
          {entry.got.map((got) => (
            <li key={got.step_id} class="chip">
              {gotWords(got)}
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted player-journey-none">Nothing sent yet.</p>
      )}
    </li>
  );
}

export function PlayerJourneys({ path, changes }: { path: string; changes: number }) {
  const loaded = useApi(() => getJson<ConsoleAnswer<'ConsolePlayerJourneys'>>(`${path}/journeys`), `${path}\n${changes}`);
  const entries = loaded.data?.journeys;
  if (loaded.error) return <ErrorNote error={loaded.error} />;
  if (!entries) return <Loading what="the player's journeys" />;
  if (entries.length === 0) return <p class="muted">Not in any journey yet.</p>;
  return (
    <ul class="player-journeys">
      {entries.map((entry) => (
        <Entry key={`${entry.journey_id}/${entry.entry_id}`} entry={entry} />
      ))}
    </ul>
  );
}
