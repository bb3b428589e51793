/**
 * Home: the overview a CRM manager opens first. What needs a decision now
 * (affiliates awaiting approval, records the service could not apply), a
 * way straight to a player, and the way to each section. Every figure is
 * read from the same API the sections use, at most one page of each.
 */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { ConsoleAnswer } from '../../answers';
import { Badge } from '../../../ui/design/badge';
import { KpiCards, type Kpi } from '../../../ui/design/kpi';
import { Card, PageHeader } from '../../../ui/design/page';
import { Visible, When } from '../../../ui/design/value';
import { getJson } from '../api';
import { ErrorNote } from '../components';
import { useSession } from '../session';
import { useApi } from '../use-api';
import { PlayerSearch, playerPath } from './players';

/** At most this many of each are read for a count: more reads "100+". */
const COUNT_PAGE = 100;
const counted = (items: readonly unknown[], next: string | null | undefined) => `${items.length}${next ? '+' : ''}`;
/** How many of the newest rejections the page shows. */
const NEWEST = 3;

export function HomePage() {
  const session = useSession();
  const { route } = useLocation();
  const [id, setId] = useState('');
  const players = useApi(() => getJson<ConsoleAnswer<'ConsoleListPlayers'>>('/players', { limit: COUNT_PAGE }), 'players');
  const pending = useApi(() => getJson<ConsoleAnswer<'ConsoleListAffiliates'>>('/affiliates', { status: 'pending', limit: COUNT_PAGE }), 'pending');
  const approved = useApi(() => getJson<ConsoleAnswer<'ConsoleListAffiliates'>>('/affiliates', { status: 'approved', limit: COUNT_PAGE }), 'approved');
  const rejections = useApi(() => getJson<ConsoleAnswer<'ConsoleListRejections'>>('/rejections', { limit: COUNT_PAGE }), 'rejections');

  const kpis: Kpi[] = [];
  if (players.data) kpis.push({ label: 'Players', value: counted(players.data.players, players.data.next_cursor) });
  if (pending.data)
    kpis.push({
      label: 'Affiliates awaiting approval',
      value: counted(pending.data.affiliates, pending.data.next_cursor),
      key: pending.data.affiliates.length > 0,
    });
  if (approved.data) kpis.push({ label: 'Approved affiliates', value: counted(approved.data.affiliates, approved.data.next_cursor) });
  if (rejections.data)
    kpis.push({
      label: 'Rejected records (14 days)',
      value: counted(rejections.data.rejections, rejections.data.next_cursor),
      key: rejections.data.rejections.length > 0,
    });
  const newest = rejections.data?.rejections.slice(0, NEWEST) ?? [];
  const error = players.error ?? pending.error ?? approved.error ?? rejections.error;
  const waiting = pending.data?.affiliates.length ?? 0;

  const open = (event: Event) => {
    event.preventDefault();
    const text = id.trim();
    route(text ? `/console/players?prefix=${encodeURIComponent(text)}` : '/console/players');
  };

  return (
    <>
      <PageHeader title="Home" subtitle={`${session.app.name}: what needs you today.`} />
      {error && <ErrorNote error={error} />}
      {kpis.length > 0 ? (
        <KpiCards label="Today" kpis={kpis} />
      ) : (
        !error && (
          <p class="loading" aria-busy="true">
            Loading the overview…
          </p>
        )
      )}
      <div class="home-grid">
        <Card title="Needs a decision">
          <ul class="decisions">
            <li>
              <span>
                <a href="/console/affiliates?status=pending">Affiliates awaiting approval</a>
                <span class="muted"> Approve or reject their sign-ups.</span>
              </span>
              {pending.data && (
                <Badge tone={waiting > 0 ? 'warning' : 'success'}>
                  {waiting > 0 ? `${counted(pending.data.affiliates, pending.data.next_cursor)} waiting` : 'none waiting'}
                </Badge>
              )}
            </li>
            <li>
              <span>
                <a href="/console/rejections">Rejected records</a>
                <span class="muted"> Records the service could not apply.</span>
              </span>
              {rejections.data && (
                <Badge tone={newest.length > 0 ? 'danger' : 'success'}>
                  {newest.length > 0 ? `${counted(rejections.data.rejections, rejections.data.next_cursor)} in 14 days` : 'none'}
                </Badge>
              )}
            </li>
          </ul>
          {newest.length > 0 && (
            <>
              <h3 class="home-subhead">Newest rejections</h3>
              <ul class="newest-rejections">
                {newest.map((rejection) => (
                  <li key={`${rejection.received_at}#${rejection.shard}#${rejection.seq}`}>
                    <span class="cluster">
                      <a href={playerPath(rejection.profile_id)} class="break">
                        <Visible text={rejection.profile_id} />
                      </a>
                      <span class="muted">
                        <When at={rejection.received_at} />
                      </span>
                    </span>
                    <span class="reason">{rejection.reason}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </Card>
        <Card title="Find a player">
          <PlayerSearch id="home-player" name="Find a player" value={id} onInput={setId} onSubmit={open} button="Find" />
          <p class="muted home-hint">
            Or browse <a href="/console/players">all players</a>.
          </p>
        </Card>
      </div>
    </>
  );
}
