/** The overview route (overview/routes.ts), made from its ports. */
import { applicationFigures, type FiguresPorts } from '../../back-office/figures';
import { answer, type Implementations } from '../route';
import type { routes } from './routes';

export type OverviewPorts = FiguresPorts;

export function overviewHandlers(ports: OverviewPorts) {
  const figures = applicationFigures(ports);
  return {
    ConsoleOverview: async ({ identity, query }) =>
      answer(200, await figures(identity.appId, { days: query.days === undefined ? undefined : Number(query.days) })),
  } satisfies Implementations<typeof routes>;
}
