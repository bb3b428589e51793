/** The results route (results/routes.ts), made from its ports. */
import { campaignResults, type CampaignResultsPorts } from '../../back-office/campaign-results';
import { answer, type Implementations } from '../route';
import type { routes } from './routes';

export type ResultsPorts = CampaignResultsPorts;

export function resultsHandlers(ports: ResultsPorts) {
  const read = campaignResults(ports);
  return {
    ConsoleCampaignResults: async ({ identity, path }) => answer(200, { results: await read(identity.appId, path.kind ?? '', path.id ?? '') }),
  } satisfies Implementations<typeof routes>;
}
