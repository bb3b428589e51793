/** A journey's or a broadcast's results (functions/back-office/campaign-results.ts). */
import { everyone, sessionTables, type ConsoleRouteDefinition } from '../route';

export const routes = [
  {
    id: 'ConsoleCampaignResults',
    method: 'GET',
    path: '/console/api/results/{kind}/{id}',
    roles: everyone,
    mutates: false,
    // apps: the main currency; campaigns: the campaign's results partition (one Query).
    tables: { ...sessionTables, apps: 'read', campaigns: 'read' },
  },
] as const satisfies readonly ConsoleRouteDefinition[];
