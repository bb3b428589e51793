/** The broadcasts routes (broadcasts/routes.ts) over the back office's use cases, made from their ports. */
import { changeBroadcast, createBroadcast, getBroadcast, listBroadcasts, type BroadcastPorts } from '../../back-office/broadcasts';
import { consoleActor } from '../../http/console-auth';
import { answer, type Implementations } from '../route';
import type { routes } from './routes';

export type BroadcastsPorts = BroadcastPorts;

const broadcastIdOf = (path: { broadcast_id?: string }) => path.broadcast_id ?? '';

export function broadcastsHandlers(ports: BroadcastsPorts) {
  const list = listBroadcasts(ports);
  const read = getBroadcast(ports);
  const create = createBroadcast(ports);
  const change = changeBroadcast(ports);
  return {
    ConsoleListBroadcasts: async ({ identity }) => answer(200, { broadcasts: await list(identity.appId) }),

    ConsoleGetBroadcast: async ({ identity, path }) => answer(200, { broadcast: await read(identity.appId, broadcastIdOf(path)) }),

    ConsoleCreateBroadcast: async ({ identity, body }) => answer(201, { broadcast: await create(identity.appId, consoleActor(identity), body) }),

    ConsoleStartBroadcast: async ({ identity, path }) =>
      answer(200, { broadcast: await change(identity.appId, consoleActor(identity), broadcastIdOf(path), 'start') }),
    ConsolePauseBroadcast: async ({ identity, path }) =>
      answer(200, { broadcast: await change(identity.appId, consoleActor(identity), broadcastIdOf(path), 'pause') }),
    ConsoleResumeBroadcast: async ({ identity, path }) =>
      answer(200, { broadcast: await change(identity.appId, consoleActor(identity), broadcastIdOf(path), 'resume') }),
    ConsoleCancelBroadcast: async ({ identity, path }) =>
      answer(200, { broadcast: await change(identity.appId, consoleActor(identity), broadcastIdOf(path), 'cancel') }),
  } satisfies Implementations<typeof routes>;
}
