/**
 * The console's pages, in one table: the router, the sidebar and the
 * breadcrumbs all read it. A new page is one entry here and one component
 * under pages/, loaded lazily: the first load carries the shell, and each
 * page's code comes with its first visit. `roles` only decides what the
 * sidebar shows: the server answers 403 to a role that may not, whatever the
 * page does.
 */
import type { FunctionComponent } from 'preact';
import { lazy } from 'preact-iso';
import type { Role } from '../../domain/enterprise';

/** Where the console is served: the SPA answers every path below it. */
export const CONSOLE_ROOT = '/console/';

/** The sidebar's sections, in order. */
export const navGroups = ['Overview', 'Audience', 'Campaigns', 'Affiliates', 'Data', 'Administration'] as const;
export type NavGroup = (typeof navGroups)[number];

export interface ConsoleRoute {
  path: string;
  // Route params arrive as props (preact-iso): each page declares the ones it reads.
  // biome-ignore lint/suspicious/noExplicitAny: each page takes its own route params as props.
  component: FunctionComponent<any>;
  /** The sidebar's label; a route without one (a player's page) is reached by links. */
  nav?: string;
  group?: NavGroup;
  /** Who sees it in the sidebar. */
  roles: readonly Role[];
}

const everyone = ['admin', 'marketer', 'viewer'] as const;
/**
 * Who runs campaigns: the Campaigns group is in their sidebar. A viewer (support, finance) still opens a journey,
 * a broadcast or their results from a link (a player's journeys, a colleague's), read-only.
 */
const campaigners = ['admin', 'marketer'] as const;

const HomePage = lazy(() => import('./pages/home').then((page) => page.HomePage));
const PlayersPage = lazy(() => import('./pages/players').then((page) => page.PlayersPage));
const PlayerPage = lazy(() => import('./pages/player').then((page) => page.PlayerPage));
const SegmentsPage = lazy(() => import('./pages/segments').then((page) => page.SegmentsPage));
const SegmentPage = lazy(() => import('./pages/segment').then((page) => page.SegmentPage));
const NewSegmentPage = lazy(() => import('./pages/segment-form').then((page) => page.NewSegmentPage));
const EditSegmentPage = lazy(() => import('./pages/segment-form').then((page) => page.EditSegmentPage));
const TemplatesPage = lazy(() => import('./pages/templates').then((page) => page.TemplatesPage));
const NewTemplatePage = lazy(() => import('./pages/template-editor').then((page) => page.NewTemplatePage));
const TemplatePage = lazy(() => import('./pages/template-editor').then((page) => page.TemplatePage));
const JourneysPage = lazy(() => import('./pages/journeys').then((page) => page.JourneysPage));
const JourneyPage = lazy(() => import('./pages/journey').then((page) => page.JourneyPage));
const NewJourneyPage = lazy(() => import('./pages/journey-form').then((page) => page.NewJourneyPage));
const EditJourneyPage = lazy(() => import('./pages/journey-form').then((page) => page.EditJourneyPage));
const BroadcastsPage = lazy(() => import('./pages/broadcasts').then((page) => page.BroadcastsPage));
const NewBroadcastPage = lazy(() => import('./pages/broadcasts').then((page) => page.NewBroadcastPage));
const BroadcastPage = lazy(() => import('./pages/broadcasts').then((page) => page.BroadcastPage));
const AffiliatesPage = lazy(() => import('./pages/affiliates').then((page) => page.AffiliatesPage));
const ProgrammePage = lazy(() => import('./pages/programme').then((page) => page.ProgrammePage));
const AffiliatePage = lazy(() => import('./pages/affiliate').then((page) => page.AffiliatePage));
const RejectionsPage = lazy(() => import('./pages/rejections').then((page) => page.RejectionsPage));
const SettingsPage = lazy(() => import('./pages/settings').then((page) => page.SettingsPage));
const UsersPage = lazy(() => import('./pages/users').then((page) => page.UsersPage));
const AuditPage = lazy(() => import('./pages/audit').then((page) => page.AuditPage));
const ResultsPage = lazy(() => import('./pages/results').then((page) => page.ResultsPage));

export const routes: readonly ConsoleRoute[] = [
  { path: '/console/home', component: HomePage, nav: 'Home', group: 'Overview', roles: everyone },
  { path: '/console/players', component: PlayersPage, nav: 'Players', group: 'Audience', roles: everyone },
  { path: '/console/players/:id', component: PlayerPage, roles: everyone },
  { path: '/console/segments', component: SegmentsPage, nav: 'Segments', group: 'Audience', roles: everyone },
  // Before `:id`: "new" is not a segment's id.
  { path: '/console/segments/new', component: NewSegmentPage, roles: everyone },
  { path: '/console/segments/:id', component: SegmentPage, roles: everyone },
  { path: '/console/segments/:id/edit', component: EditSegmentPage, roles: everyone },
  // Campaigns: what the players are sent (templates) and when (journeys, broadcasts).
  { path: '/console/templates', component: TemplatesPage, nav: 'Templates', group: 'Campaigns', roles: campaigners },
  // Before `:id`: "new" is not a template's id.
  { path: '/console/templates/new', component: NewTemplatePage, roles: everyone },
  { path: '/console/templates/:id', component: TemplatePage, roles: everyone },
  // Campaigns: each lane's pages in their own lines.
  { path: '/console/journeys', component: JourneysPage, nav: 'Journeys', group: 'Campaigns', roles: campaigners },
  { path: '/console/journeys/new', component: NewJourneyPage, roles: everyone },
  { path: '/console/journeys/:id', component: JourneyPage, roles: everyone },
  { path: '/console/journeys/:id/edit', component: EditJourneyPage, roles: everyone },
  { path: '/console/broadcasts', component: BroadcastsPage, nav: 'Broadcasts', group: 'Campaigns', roles: campaigners },
  { path: '/console/broadcasts/new', component: NewBroadcastPage, roles: everyone },
  { path: '/console/broadcasts/:id', component: BroadcastPage, roles: everyone },
  { path: '/console/affiliates', component: AffiliatesPage, nav: 'Affiliates', group: 'Affiliates', roles: everyone },
  // Before `:id`: "programme" is not an affiliate's id. Reached from the Affiliates page, so every role's sidebar stays as it was.
  { path: '/console/affiliates/programme', component: ProgrammePage, roles: everyone },
  { path: '/console/affiliates/:id', component: AffiliatePage, roles: everyone },
  { path: '/console/rejections', component: RejectionsPage, nav: 'Rejections', group: 'Data', roles: everyone },
  { path: '/console/settings', component: SettingsPage, nav: 'Settings', group: 'Administration', roles: ['admin'] },
  { path: '/console/users', component: UsersPage, nav: 'Users', group: 'Administration', roles: ['admin'] },
  { path: '/console/audit', component: AuditPage, nav: 'Audit log', group: 'Administration', roles: ['admin'] },
  // A journey's or a broadcast's results: reached from their pages.
  { path: '/console/results/:kind/:id', component: ResultsPage, roles: everyone },
];

/**
 * `/console/` itself shows Home, the application's figures (and `/console/home`
 * the same page): a sign-in lands on them, with a player a search away.
 */
export const LANDING = routes.find((route) => route.path === '/console/home')!;

export const navFor = (role: Role) => routes.filter((route) => route.nav && route.roles.includes(role));

/** Which sidebar entry a path belongs to: its own, or the one whose path it extends (a player under Players). */
export function activeNav(path: string, role: Role): ConsoleRoute | undefined {
  const normalized = path === '/console' || path === CONSOLE_ROOT ? LANDING.path : path.replace(/\/$/, '');
  // The longest match: an entry whose path extends another's is its own.
  const matches = navFor(role).filter((route) => normalized === route.path || normalized.startsWith(`${route.path}/`));
  return matches.sort((a, b) => b.path.length - a.path.length)[0];
}
