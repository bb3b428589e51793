/** The rejections route (rejections/routes.ts), made from its port. */
import type { BackOffice } from '../../back-office/ports';
import { listRejectionPage } from '../../back-office/records';
import { answer, type Implementations } from '../route';
import type { routes } from './routes';

export type RejectionsPorts = Pick<BackOffice, 'rejections'>;

export function rejectionsHandlers(office: RejectionsPorts) {
  return {
    // The application's rejected records, newest first, each with its reason and the record as received (cut to fit).
    ConsoleListRejections: async ({ identity, query }) =>
      answer(200, await listRejectionPage(office, identity.appId, { limit: query.limit ? Number(query.limit) : undefined, cursor: query.cursor })),
  } satisfies Implementations<typeof routes>;
}
