/** Players: find one by profile id (exact or prefix), page through the application's players. */
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { ConsoleAnswer } from '../../answers';
import { type Column, DataTable } from '../../../ui/design/data-table';
import { PageHeader } from '../../../ui/design/page';
import { Visible, When } from '../../../ui/design/value';
import { getJson } from '../api';
import { ErrorNote } from '../components';
import { useApi } from '../use-api';

export const PAGE_SIZE = 25;

export const playerPath = (profileId: string) => `/console/players/${encodeURIComponent(profileId)}`;

type Player = ConsoleAnswer<'ConsoleListPlayers'>['players'][number];

const columns: readonly Column<Player>[] = [
  {
    id: 'profile_id',
    header: 'Profile id',
    value: (player) => player.profile_id,
    cell: (player) => (
      <a href={playerPath(player.profile_id)} class="break">
        <Visible text={player.profile_id} />
      </a>
    ),
    rowHeader: true,
    required: true,
  },
  { id: 'updated_at', header: 'Last updated', value: (player) => player.updated_at, cell: (player) => <When at={player.updated_at} /> },
];

/** The search box: a label, the input and a button sized to its label beside it (below it on a narrow screen). */
export function PlayerSearch({
  id,
  name,
  value,
  onInput,
  onSubmit,
  button,
}: {
  id: string;
  /** The form's accessible name. */
  name: string;
  value: string;
  onInput: (text: string) => void;
  onSubmit: (event: Event) => void;
  button: string;
}) {
  return (
    <form class="player-search" onSubmit={onSubmit} aria-label={name} role="search">
      <label for={id}>Profile id, or its beginning</label>
      <div class="search-row">
        <input
          id={id}
          name="prefix"
          type="search"
          value={value}
          onInput={(event) => onInput(event.currentTarget.value)}
          placeholder="e.g. player-42"
          autocomplete="off"
          spellcheck={false}
          maxLength={128}
        />
        <button type="submit" class="primary">
          {button}
        </button>
      </div>
    </form>
  );
}

export function PlayersPage() {
  const { query, route } = useLocation();
  const prefix = query.prefix ?? '';
  const [typed, setTyped] = useState(prefix);
  // A cursor belongs to the search it came from: a new prefix (typed, or from Home or the history) starts at the first page.
  const [paged, setPaged] = useState<{ prefix: string; cursor: string }>();
  const cursor = paged?.prefix === prefix ? paged.cursor : undefined;
  const list = useApi(() => getJson<ConsoleAnswer<'ConsoleListPlayers'>>('/players', { prefix, cursor, limit: PAGE_SIZE }), `${prefix}\n${cursor ?? ''}`);
  useEffect(() => setTyped(prefix), [prefix]);

  const search = (event: Event) => {
    event.preventDefault();
    setPaged(undefined);
    const text = typed.trim();
    route(text ? `/console/players?prefix=${encodeURIComponent(text)}` : '/console/players');
    // The same search again (a player applied meanwhile) reads the list again.
    if (text === prefix) list.reload();
  };

  return (
    <>
      <PageHeader title="Players" subtitle="Every player the application has sent, by profile id. Open one to see its attributes, timeline and messages." />
      <div class="players-list">
        <div class="card players-search">
          <PlayerSearch id="player-search" name="Find players" value={typed} onInput={setTyped} onSubmit={search} button="Search" />
        </div>
        <DataTable
          label={prefix ? `Players whose id starts with “${prefix}”` : 'Players'}
          rows={list.data?.players}
          columns={columns}
          rowId={(player) => player.profile_id}
          loading={list.loading}
          error={list.error && <ErrorNote error={list.error} />}
          empty={
            prefix ? (
              <>
                No player's id starts with “<Visible text={prefix} />
                ”.
              </>
            ) : cursor ? (
              'No players on this page.'
            ) : (
              'No players yet: they appear here once the application sends its first profile or event.'
            )
          }
          paging={
            list.data && {
              count: list.data.players.length,
              noun: 'player',
              next: list.data.next_cursor,
              atFirst: cursor === undefined,
              onNext: (next) => setPaged({ prefix, cursor: next }),
              onFirst: () => setPaged(undefined),
            }
          }
        />
      </div>
    </>
  );
}
