/** The journeys routes (journeys/routes.ts) over the back office's journey use cases, made from their ports. */
import {
  createJourneyView,
  editJourneyView,
  getJourneyView,
  type JourneyViewPorts,
  listJourneyViews,
  playerJourneyViews,
  setJourneyStatus,
} from '../../back-office/journey-views';
import { consoleActor } from '../../http/console-auth';
import { answer, type Implementations } from '../route';
import type { routes } from './routes';

export type JourneysPorts = JourneyViewPorts;

const journeyIdOf = (path: { journey_id?: string }) => path.journey_id ?? '';

export function journeysHandlers(ports: JourneysPorts) {
  const list = listJourneyViews(ports);
  const read = getJourneyView(ports);
  const create = createJourneyView(ports);
  const edit = editJourneyView(ports);
  const status = setJourneyStatus(ports);
  const player = playerJourneyViews(ports);
  return {
    ConsoleListJourneys: async ({ identity, query }) => answer(200, { journeys: await list(identity.appId, { archived: query.archived === 'true' }) }),

    ConsoleGetJourney: async ({ identity, path }) => answer(200, { journey: await read(identity.appId, journeyIdOf(path)) }),

    ConsoleCreateJourney: async ({ identity, body }) => answer(201, { journey: await create(identity.appId, consoleActor(identity), body) }),

    ConsoleEditJourney: async ({ identity, path, body }) =>
      answer(200, { journey: await edit(identity.appId, consoleActor(identity), journeyIdOf(path), body) }),

    ConsolePublishJourney: async ({ identity, path }) =>
      answer(200, { journey: await status(identity.appId, consoleActor(identity), journeyIdOf(path), 'publish') }),

    ConsolePauseJourney: async ({ identity, path }) =>
      answer(200, { journey: await status(identity.appId, consoleActor(identity), journeyIdOf(path), 'pause') }),

    ConsoleResumeJourney: async ({ identity, path }) =>
      answer(200, { journey: await status(identity.appId, consoleActor(identity), journeyIdOf(path), 'resume') }),

    ConsoleArchiveJourney: async ({ identity, path }) =>
      answer(200, { journey: await status(identity.appId, consoleActor(identity), journeyIdOf(path), 'archive') }),

    ConsolePlayerJourneys: async ({ identity, path }) =>
      answer(200, { journeys: await player(identity.appId, (path as { profile_id?: string }).profile_id ?? '') }),
  } satisfies Implementations<typeof routes>;
}
