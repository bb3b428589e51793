/**
 * Every route of the back-office console's API (`/console/api/…`, docs/api.md,
 * "Back office API"), each declared once in its area's folder. The manifest
 * reads this (functions/manifest/operations.ts): the one function's grants
 * are their union. Declarations and validators only: no store, no client.
 */
import { routes as affiliates } from './affiliates/routes';
import { routes as journeys } from './journeys/routes';
import { routes as broadcasts } from './broadcasts/routes';
import { routes as overview } from './overview/routes';
import { routes as programme } from './programme/routes';
import { routes as players } from './players/routes';
import { routes as rejections } from './rejections/routes';
import { routes as results } from './results/routes';
import { routes as segments } from './segments/routes';
import { routes as settings } from './settings/routes';
import { routes as statements } from './statements/routes';
import { routes as templates } from './templates/routes';
import { routes as users } from './users/routes';

export const routes = [
  ...users,
  ...settings,
  ...players,
  ...affiliates,
  ...programme,
  ...rejections,
  ...overview,
  ...segments,
  ...templates,
  ...results,
  ...journeys,
  ...broadcasts,
  ...statements,
] as const;

export type ConsoleRoute = (typeof routes)[number];
export type ConsoleRouteId = ConsoleRoute['id'];
