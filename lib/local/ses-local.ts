/**
 * The local SES v2: aws-ses-v2-local, in process. It answers SendEmail as SES
 * does and keeps what was sent, in memory, for people (its web view at `/`)
 * and tests (`GET /store`). Sent mail does not survive a restart.
 */
import type { Server } from 'node:http';
import sesLocalModule from 'aws-ses-v2-local';
import { LocalStackError, type RunningProcess } from './emulators';

// CommonJS with `exports.default`: imported from ESM, the function sits one level down.
const startSesServer = (sesLocalModule as unknown as { default?: typeof sesLocalModule }).default ?? sesLocalModule;

export interface RunningSes extends RunningProcess {
  /** Where the SES v2 API, the web view (`/`) and the store (`/store`) are. */
  url: string;
}

export async function startSesLocal(options: { port: number; host: string }): Promise<RunningSes> {
  const server: Server = await startSesServer({ port: options.port, host: options.host });
  // Its listen callback also runs on an error, so check that it really listens.
  if (!server.listening) {
    throw new LocalStackError(`The local SES server could not listen on ${options.host}:${options.port}.`);
  }
  return {
    url: `http://${options.host}:${options.port}`,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    diagnostics: () => '',
    exited: () => false,
  };
}
