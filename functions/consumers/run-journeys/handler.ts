import { funnelStore, rejectionLog } from '../../adapters/stores';
import { nowFor } from '../../runtime/clock';
import { makeRunJourneysHandler } from './make-handler';
import { journeyRuntime } from '../../adapters/journey-runtime';

const { journeys, runner } = journeyRuntime();

export const handler = makeRunJourneysHandler({
  journeys,
  runner,
  ledgers: funnelStore(),
  rejections: rejectionLog(),
  now: nowFor,
});
