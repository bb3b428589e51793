/** The players routes (players/routes.ts) over the back office's use cases, made from their ports. */
import { emailPlayer, pushPlayer, type MessagingPorts } from '../../back-office/messaging';
import { changePlayerAttribute, getPlayer, listPlayers, playerTimeline, type PlayerPorts } from '../../back-office/players';
import { profileIdOf } from '../../domain/profile-id';
import { logger } from '../../runtime/logger';
import { answer, type Implementations } from '../route';
import type { routes } from './routes';

export type PlayersPorts = PlayerPorts & MessagingPorts;

export function playersHandlers(ports: PlayersPorts) {
  const list = listPlayers(ports);
  const read = getPlayer(ports);
  const timeline = playerTimeline(ports);
  const change = changePlayerAttribute(ports);
  const email = emailPlayer(ports);
  const push = pushPlayer(ports);
  return {
    ConsoleListPlayers: async ({ identity, query }) => answer(200, await list(identity, query)),

    ConsoleGetPlayer: async ({ identity, path }) => answer(200, await read(identity, profileIdOf(path))),

    ConsolePlayerTimeline: async ({ identity, path, query }) => answer(200, await timeline(identity, profileIdOf(path), query)),

    ConsoleChangePlayerAttribute: async ({ identity, path, body }) => answer(200, await change(identity, profileIdOf(path), body)),

    ConsoleEmailPlayer: async ({ identity, path, body }) => {
      const sent = await email(identity, profileIdOf(path), body);
      logger.info('Email sent to a player from the back office', { app_id: identity.appId, user_id: identity.userId, ...sent });
      return answer(200, sent);
    },

    ConsolePushPlayer: async ({ identity, path, body, remainingMs }) => {
      const sent = await push(identity, profileIdOf(path), body, { remainingMs: remainingMs() });
      logger.info('Push sent to a player from the back office', { app_id: identity.appId, user_id: identity.userId, ...sent });
      return answer(200, sent);
    },
  } satisfies Implementations<typeof routes>;
}
