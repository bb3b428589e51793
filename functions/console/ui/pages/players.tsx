/** Players: find one by profile id (exact or prefix), page through the application's players. */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { ConsoleAnswer } from '../../answers';
import { getJson } from '../api';
import { ErrorNote, Loading, Pager, When } from '../components';
import { useApi } from '../use-api';

export const PAGE_SIZE = 25;

export const playerPath = (profileId: string) => `/console/players/${encodeURIComponent(profileId)}`;

export function PlayersPage() {
  const { query, route } = useLocation();
  const prefix = query.prefix ?? '';
  const [typed, setTyped] = useState(prefix);
  const [cursor, setCursor] = useState<string | undefined>();
  const list = useApi(() => getJson<ConsoleAnswer<'ConsoleListPlayers'>>('/players', { prefix, cursor, limit: PAGE_SIZE }), `${prefix}\n${cursor ?? ''}`);

  const search = (event: Event) => {
    event.preventDefault();
    setCursor(undefined);
    const text = typed.trim();
    route(text ? `/console/players?prefix=${encodeURIComponent(text)}` : '/console/players');
  };

  return (
    <>
      <h1>Players</h1>
      <form onSubmit={search} aria-label="Find players">
        <label for="player-search">Profile id, or its beginning</label>
        <fieldset role="group">
          <input
            id="player-search"
            name="prefix"
            type="search"
            value={typed}
            onInput={(event) => setTyped(event.currentTarget.value)}
            placeholder="e.g. player-42"
            autocomplete="off"
            maxLength={128}
          />
          <button type="submit">Search</button>
        </fieldset>
      </form>
      {list.error && <ErrorNote error={list.error} />}
      {list.loading && !list.data && <Loading what="players" />}
      {list.data && (
        <>
          {list.data.players.length === 0 ? (
            <p>{prefix ? `No player's id starts with “${prefix}”.` : 'No players on this page.'}</p>
          ) : (
            <figure class="table-scroll">
              <table class="striped" aria-busy={list.loading}>
                <caption class="visually-hidden">{prefix ? `Players whose id starts with “${prefix}”` : 'Players'}</caption>
                <thead>
                  <tr>
                    <th scope="col">Profile id</th>
                    <th scope="col">Last updated</th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.players.map((player) => (
                    <tr key={player.profile_id}>
                      <td>
                        <a href={playerPath(player.profile_id)}>{player.profile_id}</a>
                      </td>
                      <td>
                        <When at={player.updated_at} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </figure>
          )}
          <Pager next={list.data.next_cursor} atFirst={cursor === undefined} onNext={setCursor} onFirst={() => setCursor(undefined)} />
        </>
      )}
    </>
  );
}
