/** Players: find one by id, email, name or phone; page through the application's players with the columns the reader chooses. */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { ConsoleAnswer } from '../../answers';
import { type Column, DataTable } from '../../../ui/design/data-table';
import { PageHeader } from '../../../ui/design/page';
import { Money, Value, Visible, When } from '../../../ui/design/value';
import { getJson } from '../api';
import { ErrorNote } from '../components';
import { useApi } from '../use-api';

export const PAGE_SIZE = 25;

export const playerPath = (profileId: string) => `/console/players/${encodeURIComponent(profileId)}`;

type PlayerList = ConsoleAnswer<'ConsoleListPlayers'>;
type Player = PlayerList['players'][number];

const money = (pick: (player: Player) => string, header: string, id: string, hidden = false): Column<Player> => ({
  id,
  header,
  numeric: true,
  hidden,
  value: (player) => Number(pick(player)),
  cell: (player) => <Money amount={pick(player)} currency={player.money.currency} />,
});

const deposit = (which: 'first_deposit' | 'last_deposit', header: string): Column<Player> => ({
  id: which,
  header,
  hidden: true,
  value: (player) => player.money[which]?.day,
  cell: (player) => {
    const found = player.money[which];
    return found ? (
      <span>
        <Money amount={found.amount} currency={player.money.currency} /> <span class="muted">{found.day}</span>
      </span>
    ) : (
      <span class="value-empty">none</span>
    );
  },
});

/** The columns every list has; the players' own attributes follow, hidden until chosen. */
const fixedColumns: readonly Column<Player>[] = [
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
  { id: 'name', header: 'Name', value: (player) => player.name ?? undefined, cell: (player) => <Value value={player.name ?? undefined} /> },
  { id: 'email', header: 'Email', value: (player) => player.email ?? undefined, cell: (player) => <Value value={player.email ?? undefined} /> },
  money((player) => player.money.deposits, 'Deposits', 'deposits'),
  money((player) => player.money.ngr, 'NGR', 'ngr'),
  money((player) => player.money.withdrawals, 'Withdrawals', 'withdrawals', true),
  { id: 'deposit_count', header: 'Deposits made', numeric: true, hidden: true, value: (player) => player.money.deposit_count },
  deposit('first_deposit', 'First deposit'),
  deposit('last_deposit', 'Last deposit'),
  { id: 'updated_at', header: 'Last updated', value: (player) => player.updated_at, cell: (player) => <When at={player.updated_at} /> },
];

const matchedColumn: Column<Player> = {
  id: 'matched',
  header: 'Matched by',
  value: (player) => player.matched?.by,
  cell: (player) =>
    player.matched ? (
      <span>
        {player.matched.by.replace(/_/g, ' ')}
        <span class="muted">{player.matched.exact ? ' (exact)' : ' (beginning)'}</span>
      </span>
    ) : null,
};

/** An attribute of the players on the page, as a column the reader may add. */
const attributeColumn = (name: string): Column<Player> => ({
  id: `attribute:${name}`,
  header: name,
  hidden: true,
  value: (player) => {
    const value = player.attributes[name];
    return value === null ? undefined : value;
  },
  cell: (player) => <Value value={player.attributes[name]} />,
});

/** The columns of a page: the fixed ones, what a search matched, then each attribute any of its players has. */
function columnsOf(players: readonly Player[] | undefined, searching: boolean): Column<Player>[] {
  const names = new Set<string>();
  for (const player of players ?? []) for (const name of Object.keys(player.attributes)) names.add(name);
  const shown = new Set(['email']);
  const attributes = [...names].filter((name) => !shown.has(name)).sort();
  const [id, ...rest] = fixedColumns;
  return [id!, ...(searching ? [matchedColumn] : []), ...rest, ...attributes.map(attributeColumn)];
}

const plural = (count: number) => `${count.toLocaleString('en-GB')} player${count === 1 ? '' : 's'}`;

/** How many players: the application's total when the answer has it, else what this page can honestly say. */
function countOf(list: PlayerList, searching: boolean, firstPage: boolean): string {
  if (searching) return list.players.length === 0 ? '' : `${plural(list.players.length)} found, best matches first`;
  if (list.total !== undefined) return `${plural(list.total)} in all`;
  if (firstPage && !list.next_cursor) return `${plural(list.players.length)} in all`;
  return list.next_cursor ? `${list.players.length.toLocaleString('en-GB')}+ players` : '';
}

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
      <label for={id}>
        Search by id, email, name or phone
        <span class="search-hint">Type a profile id, or its beginning, or the start of an email, name or phone number. Case does not matter.</span>
      </label>
      <div class="search-row">
        <input
          id={id}
          name="q"
          type="search"
          value={value}
          onInput={(event) => onInput(event.currentTarget.value)}
          placeholder="e.g. liam, player-42 or +356 7912"
          autocomplete="off"
          spellcheck={false}
          maxLength={200}
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
  // `prefix`: the address Home and bookmarks have always used for a search.
  const text = (query.q ?? query.prefix ?? '').trim();
  const searching = text !== '';
  const [typed, setTyped] = useState(text);
  // A cursor belongs to the list it came from: a search (typed, or from Home or the history) has none.
  const [paged, setPaged] = useState<{ text: string; cursor: string }>();
  const cursor = !searching && paged?.text === text ? paged.cursor : undefined;
  const key = `${text}\n${cursor ?? ''}`;
  const loaded = useApi(() => getJson<PlayerList>('/players', searching ? { q: text } : { cursor, limit: PAGE_SIZE }), key);
  // Never the previous list under this one's heading and columns (a search's "matched" beside the list's rows).
  const list = loaded.dataKey === key ? loaded : { ...loaded, data: undefined };
  useEffect(() => setTyped(text), [text]);
  const players = list.data?.players;
  const columns = useMemo(() => columnsOf(players, searching), [players, searching]);

  const search = (event: Event) => {
    event.preventDefault();
    setPaged(undefined);
    const next = typed.trim();
    route(next ? `/console/players?prefix=${encodeURIComponent(next)}` : '/console/players');
    // The same search again (a player applied meanwhile) reads the list again.
    if (next === text) list.reload();
  };

  const count = list.data && countOf(list.data, searching, cursor === undefined);
  return (
    <>
      <PageHeader
        title="Players"
        subtitle="Every player the application has sent. Find one by id, email, name or phone; choose the columns; open one to see its attributes, timeline and messages."
      />
      <div class="players-list">
        <div class="card players-search">
          <PlayerSearch id="player-search" name="Find players" value={typed} onInput={setTyped} onSubmit={search} button="Search" />
        </div>
        <DataTable
          label={searching ? `Players matching “${text}”` : 'Players'}
          rows={players}
          columns={columns}
          rowId={(player) => player.profile_id}
          loading={list.loading}
          error={list.error && <ErrorNote error={list.error} />}
          toolbar={count ? <p class="table-count">{count}</p> : undefined}
          empty={
            searching ? (
              <>
                No player matches “<Visible text={text} />
                ”.
              </>
            ) : cursor ? (
              'No players on this page.'
            ) : (
              'No players yet: they appear here once the application sends its first profile or event.'
            )
          }
          paging={
            list.data && !searching
              ? {
                  count: list.data.players.length,
                  noun: 'player',
                  next: list.data.next_cursor,
                  atFirst: cursor === undefined,
                  onNext: (next) => setPaged({ text, cursor: next }),
                  onFirst: () => setPaged(undefined),
                }
              : undefined
          }
        />
      </div>
    </>
  );
}
