/**
 * Home: the overview a CRM manager opens first. What needs a decision now
 * (affiliates awaiting approval, records the service could not apply), a
 * way straight to a player, and the way to each section. Every figure is
 * read from the same API the sections use, at most one page of each.
 */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { ConsoleAnswer } from '../../answers';
import { KpiCards, type Kpi } from '../../../ui/design/kpi';
import { Card, PageHeader } from '../../../ui/design/page';
import { When } from '../../../ui/design/value';
import { getJson } from '../api';
import { ErrorNote } from '../components';
import { useSession } from '../session';
import { useApi } from '../use-api';

/** At most this many of each are read for a count: more reads "100+". */
const COUNT_PAGE = 100;
const counted = (items: readonly unknown[], next: string | null | undefined) => `${items.length}${next ? '+' : ''}`;

export function HomePage() {
  const session = useSession();
  const { route } = useLocation();
  const [id, setId] = useState('');
  const pending = useApi(() => getJson<ConsoleAnswer<'ConsoleListAffiliates'>>('/affiliates', { status: 'pending', limit: COUNT_PAGE }), 'pending');
  const approved = useApi(() => getJson<ConsoleAnswer<'ConsoleListAffiliates'>>('/affiliates', { status: 'approved', limit: COUNT_PAGE }), 'approved');
  const rejections = useApi(() => getJson<ConsoleAnswer<'ConsoleListRejections'>>('/rejections', { limit: COUNT_PAGE }), 'rejections');

  const kpis: Kpi[] = [];
  if (pending.data)
    kpis.push({
      label: 'Affiliates awaiting approval',
      value: counted(pending.data.affiliates, pending.data.next_cursor),
      key: pending.data.affiliates.length > 0,
    });
  if (approved.data) kpis.push({ label: 'Approved affiliates', value: counted(approved.data.affiliates, approved.data.next_cursor) });
  if (rejections.data) kpis.push({ label: 'Rejected records (14 days)', value: counted(rejections.data.rejections, rejections.data.next_cursor) });
  const newest = rejections.data?.rejections[0];
  const error = pending.error ?? approved.error ?? rejections.error;

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
      <div class="grid-auto">
        <Card title="Find a player">
          <form onSubmit={open} aria-label="Find a player">
            <div class="field">
              <label for="home-player">Profile id, or its beginning</label>
              <input id="home-player" type="search" value={id} onInput={(event) => setId(event.currentTarget.value)} autocomplete="off" maxLength={128} />
            </div>
            <button type="submit" class="primary">
              Find
            </button>
          </form>
        </Card>
        <Card title="Needs a decision">
          <ul>
            <li>
              <a href="/console/affiliates?status=pending">Affiliates awaiting approval</a>
              {pending.data && ` (${counted(pending.data.affiliates, pending.data.next_cursor)})`}
            </li>
            <li>
              <a href="/console/rejections">Rejected records</a>
              {newest && (
                <>
                  {', newest '}
                  <When at={newest.received_at} />
                </>
              )}
            </li>
          </ul>
        </Card>
      </div>
    </>
  );
}
