import { journeyRuntime } from '../../adapters/journey-runtime';
import { furthestAheadMs, nowFor } from '../../runtime/clock';
import { makeJourneyTimersHandler } from './make-handler';

const { journeys, runner } = journeyRuntime();

export const handler = makeJourneyTimersHandler({
  journeys,
  runner,
  appTime: nowFor,
  aheadMs: furthestAheadMs,
  now: () => new Date(),
});
