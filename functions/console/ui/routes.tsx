/**
 * The console's pages, in one table: the router and the nav both read it. A
 * new page (Affiliates, Settings, …) is one entry here and one component
 * under pages/. `roles` only decides what the nav shows: the server answers
 * 403 to a role that may not, whatever the page does.
 */
import type { FunctionComponent } from 'preact';
import type { Role } from '../../domain/enterprise';
import { AffiliatePage } from './pages/affiliate';
import { AffiliatesPage } from './pages/affiliates';
import { AuditPage } from './pages/audit';
import { PlayerPage } from './pages/player';
import { PlayersPage } from './pages/players';
import { RejectionsPage } from './pages/rejections';
import { SettingsPage } from './pages/settings';
import { UsersPage } from './pages/users';

/** Where the console is served: the SPA answers every path below it. */
export const CONSOLE_ROOT = '/console/';

export interface ConsoleRoute {
  path: string;
  // Route params arrive as props (preact-iso): each page declares the ones it reads.
  // biome-ignore lint/suspicious/noExplicitAny: each page takes its own route params as props.
  component: FunctionComponent<any>;
  /** The nav's label; a route without one (a player's page) is reached by links. */
  nav?: string;
  /** Who sees it in the nav. */
  roles: readonly Role[];
}

const everyone = ['admin', 'marketer', 'viewer'] as const;

export const routes: readonly ConsoleRoute[] = [
  { path: '/console/players', component: PlayersPage, nav: 'Players', roles: everyone },
  { path: '/console/players/:id', component: PlayerPage, roles: everyone },
  { path: '/console/affiliates', component: AffiliatesPage, nav: 'Affiliates', roles: everyone },
  { path: '/console/affiliates/:id', component: AffiliatePage, roles: everyone },
  { path: '/console/rejections', component: RejectionsPage, nav: 'Rejections', roles: everyone },
  { path: '/console/settings', component: SettingsPage, nav: 'Settings', roles: ['admin'] },
  { path: '/console/users', component: UsersPage, nav: 'Users', roles: ['admin'] },
  { path: '/console/audit', component: AuditPage, nav: 'Audit log', roles: ['admin'] },
];

/** `/console/` itself shows the first page of the nav. */
export const HOME = routes[0]!;

export const navFor = (role: Role) => routes.filter((route) => route.nav && route.roles.includes(role));

/** Which nav entry a path belongs to: its own, or the one whose path it extends (a player under Players). */
export function activeNav(path: string, role: Role): ConsoleRoute | undefined {
  const normalized = path === '/console' || path === CONSOLE_ROOT ? HOME.path : path.replace(/\/$/, '');
  return navFor(role).find((route) => normalized === route.path || normalized.startsWith(`${route.path}/`));
}
