/** The journeys routes (journeys/routes.ts) over the back office's journey use cases, made from their ports. */
import { journeyView, listJourneyViews } from '../../back-office/journey-views';
import { createJourney, editJourney, getJourney, type JourneyPorts, moveJourney, playerJourneys } from '../../back-office/journeys';
import { consoleActor } from '../../http/console-auth';
import { answer, type Implementations } from '../route';
import type { routes } from './routes';

export type JourneysPorts = JourneyPorts;

const journeyIdOf = (path: { journey_id?: string }) => path.journey_id ?? '';

export function journeysHandlers(ports: JourneysPorts) {
  const list = listJourneyViews(ports);
  const read = getJourney(ports);
  const create = createJourney(ports);
  const edit = editJourney(ports);
  const move = moveJourney(ports);
  const player = playerJourneys(ports);
  return {
    ConsoleListJourneys: async ({ identity, query }) => answer(200, { journeys: await list(identity.appId, { archived: query.archived === 'true' }) }),

    ConsoleGetJourney: async ({ identity, path }) => answer(200, { journey: journeyView(await read(identity.appId, journeyIdOf(path))) }),

    ConsoleCreateJourney: async ({ identity, body }) => answer(201, { journey: journeyView(await create(identity.appId, consoleActor(identity), body)) }),

    ConsoleEditJourney: async ({ identity, path, body }) =>
      answer(200, { journey: journeyView(await edit(identity.appId, consoleActor(identity), journeyIdOf(path), body)) }),

    ConsolePublishJourney: async ({ identity, path }) =>
      answer(200, { journey: journeyView(await move(identity.appId, consoleActor(identity), journeyIdOf(path), 'publish')) }),

    ConsolePauseJourney: async ({ identity, path }) =>
      answer(200, { journey: journeyView(await move(identity.appId, consoleActor(identity), journeyIdOf(path), 'pause')) }),

    ConsoleResumeJourney: async ({ identity, path }) =>
      answer(200, { journey: journeyView(await move(identity.appId, consoleActor(identity), journeyIdOf(path), 'resume')) }),

    ConsoleArchiveJourney: async ({ identity, path }) =>
      answer(200, { journey: journeyView(await move(identity.appId, consoleActor(identity), journeyIdOf(path), 'archive')) }),

    ConsolePlayerJourneys: async ({ identity, path }) => answer(200, { journeys: await player(identity.appId, path.profile_id ?? '') }),
  } satisfies Implementations<typeof routes>;
}
