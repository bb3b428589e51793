/**
 * The top of the player page beside the money (player-money.tsx): who the
 * player is (a name from the profile, else the id) and what the newest and
 * oldest events say (last login, or else the last event; days since the
 * first event), as the server read them in bounded steps.
 */
import type { ConsoleAnswer } from '../../answers';
import { type Kpi, KpiCards } from '../../../ui/design/kpi';
import { When } from '../../../ui/design/value';
import { formatCount } from '../../../ui/format';

type PlayerView = ConsoleAnswer<'ConsoleGetPlayer'>;
export type Activity = PlayerView['activity'];

const DAY_MS = 86_400_000;

const textOf = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** `first_name last_name`, or `name`, as the integrator stored them; undefined when the profile has neither. */
export function playerName(attributes: readonly Pick<PlayerView['attributes'][number], 'name' | 'value'>[]): string | undefined {
  const byName = new Map(attributes.map((attribute) => [attribute.name, attribute.value]));
  const full = [textOf(byName.get('first_name')), textOf(byName.get('last_name'))].filter((part) => part !== undefined).join(' ');
  return full || textOf(byName.get('name'));
}

/** Whole days from `at` to `now` (never below zero: a clock ahead of the reader's is today). */
export const daysSince = (at: string, now: number) => Math.max(0, Math.floor((now - Date.parse(at)) / DAY_MS));

/** `just now`, `5 minutes ago`, `3 hours ago`, `yesterday`, `12 days ago`. */
export function ago(at: string, now: number): string {
  const ms = Math.max(0, now - Date.parse(at));
  const words = new Intl.RelativeTimeFormat('en-GB', { numeric: 'auto' });
  if (ms < 60_000) return 'just now';
  if (ms < 3_600_000) return words.format(-Math.floor(ms / 60_000), 'minute');
  if (ms < DAY_MS) return words.format(-Math.floor(ms / 3_600_000), 'hour');
  return words.format(-Math.floor(ms / DAY_MS), 'day');
}

const none = (words: string) => <span class="muted">{words}</span>;

/** Last login (or, without one, the last event) and days since registration (the first event: the profile keeps no creation time). */
export function activityKpis(activity: Activity, now = Date.now()): Kpi[] {
  const login = activity.last_login;
  const searched = activity.login_searched_to;
  const last = activity.last_event;
  let recent: Kpi;
  if (login) recent = { id: 'kpi-last-login', label: 'Last login', value: ago(login.at, now), note: <When at={login.at} /> };
  else if (searched) {
    // The search stopped before the oldest event: all that is known is that no login came since then.
    const days = daysSince(searched, now);
    recent = {
      id: 'kpi-last-login',
      label: 'Last login',
      value: days >= 1 ? `More than ${formatCount(days)} day${days === 1 ? '' : 's'} ago` : 'Not recently',
      note: (
        <>
          none since <When at={searched} />
        </>
      ),
    };
  } else if (last)
    recent = {
      id: 'kpi-last-event',
      label: 'Last event',
      value: ago(last.at, now),
      note: (
        <>
          <code>{last.event}</code>, <When at={last.at} />
        </>
      ),
    };
  else recent = { id: 'kpi-last-login', label: 'Last login', value: none('none'), note: 'No events yet' };
  const first = activity.first_event_at;
  const registered: Kpi = first
    ? { id: 'kpi-days-registered', label: 'Days since registration', value: formatCount(daysSince(first, now)), note: <When at={first} /> }
    : { id: 'kpi-days-registered', label: 'Days since registration', value: none('unknown'), note: 'No events yet' };
  return [recent, registered];
}

export function PlayerFacts({ activity }: { activity: Activity }) {
  return (
    <div class="player-facts">
      <KpiCards label="Activity" kpis={activityKpis(activity)} />
    </div>
  );
}
