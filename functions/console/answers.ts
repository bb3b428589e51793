/**
 * The answer of each console route, as its implementation makes it: what the
 * console's pages (ui/) import with `import type`, so the two cannot drift.
 * `ConsoleAnswer<'ConsoleListKeys'>` is `{ keys: [...] }`.
 */
import type { consoleImplementations } from './make-handler';
import type { Answer } from './route';
import type { ConsoleRouteId } from './routes';

type Made = ReturnType<typeof consoleImplementations>;

/** The JSON body a route answers with on success. */
export type ConsoleAnswer<Id extends ConsoleRouteId> = Awaited<ReturnType<Made[Id]>> extends Answer<infer T> ? T : never;
