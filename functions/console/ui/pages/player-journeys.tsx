/** A player's journeys on their page: each entry, where they are in it (or how it ended), and what it sent them (the gate may still have suppressed one: the timeline says). */
import type { ConsoleAnswer } from '../../answers';
import { Badge, type Tone } from '../../../ui/design/badge';
import { When } from '../../../ui/design/value';
import { getJson } from '../api';
import { ErrorNote, Loading } from '../components';
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

export const sendWords = (send: PlayerJourney['sends'][number]) => `${channelWords[send.channel] ?? 'Message'} “${send.template_id}”`;

function Entry({ entry }: { entry: PlayerJourney }) {
  const ending = entry.done ? endings[entry.done.reason] : undefined;
  const step = (
    <a href={`${journeyPath(entry.journey_id)}#${stepAnchor(entry.step_id)}`}>
      <code>{entry.step_id}</code>
    </a>
  );
  return (
    <li class="player-journey">
      <div class="player-journey-head">
        <a href={journeyPath(entry.journey_id)}>{entry.name}</a>
        {ending ? <Badge tone={ending.tone}>{ending.words}</Badge> : <Badge tone="accent">In progress</Badge>}
        <span class="muted">version {entry.version}</span>
      </div>
      <p class="player-journey-where">
        {entry.done ? (
          <>
            Left at {step} <When at={entry.done.at} />
          </>
        ) : (
          <>
            At {step}
            {entry.waiting_until && (
              <>
                {' '}
                until <When at={entry.waiting_until} />
              </>
            )}
          </>
        )}
        <span class="muted">
          {' '}
          · entered <When at={entry.entered_at} />
        </span>
      </p>
      {entry.sends.length > 0 ? (
        <ul class="chips" aria-label={`What ${entry.name} sent`}>
          {entry.sends.map((send) => (
            <li key={send.step_id} class="chip">
              {sendWords(send)}
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
