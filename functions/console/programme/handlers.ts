/** The programme view's routes (programme/routes.ts) over the back office's use case. */
import { programme, type ProgrammePorts } from '../../back-office/programme';
import { programmeCsv } from '../../back-office/programme-csv';
import { answer, type Implementations } from '../route';
import type { routes } from './routes';

export type { ProgrammePorts };

export function programmeHandlers(office: ProgrammePorts) {
  const view = programme(office);
  return {
    ConsoleProgramme: async ({ identity, query }) => answer(200, await view(identity.appId, query.month)),

    ConsoleProgrammeCsv: async ({ identity, query }) => {
      const month = await view(identity.appId, query.month);
      return {
        statusCode: 200,
        headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="affiliate-programme-${month.month}.csv"` },
        body: programmeCsv(month),
      };
    },
  } satisfies Implementations<typeof routes>;
}
