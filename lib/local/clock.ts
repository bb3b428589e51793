/**
 * `PUT /local/clock` (local stack only): moves one application's send-gate
 * clock (functions/runtime/clock.ts) by `offset_ms`, so a test sees a day
 * pass or quiet hours end without waiting, and other applications' tests keep
 * real time. The handlers run in this process and read URM_CLOCK_OFFSETS at
 * each send. Loopback callers only; the server listens on 127.0.0.1 anyway.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CLOCK_OFFSETS_ENV } from '../../functions/runtime/clock';
import type { StaticHandler } from './server';

export const LOCAL_CLOCK_PATH = '/local/clock';
const MAX_BODY_BYTES = 1024;
/** A year and a bit either way: enough for caps, weeks and exclusions' ends. */
const MAX_OFFSET_MS = 400 * 24 * 3600 * 1000;

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(JSON.stringify(body));
}

const loopback = (address: string | undefined) => address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';

async function bodyOf(request: IncomingMessage): Promise<string | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Sets one application's offset in the environment the handlers read (0 removes it). */
export function setClockOffset(appId: string, offsetMs: number): Record<string, number> {
  let offsets: Record<string, number> = {};
  try {
    offsets = JSON.parse(process.env[CLOCK_OFFSETS_ENV] || '{}') as Record<string, number>;
  } catch {
    offsets = {};
  }
  if (offsetMs === 0) delete offsets[appId];
  else offsets[appId] = offsetMs;
  process.env[CLOCK_OFFSETS_ENV] = JSON.stringify(offsets);
  return offsets;
}

export function clockStatics(): StaticHandler {
  return (request, response, url) => {
    if (url.pathname !== LOCAL_CLOCK_PATH) return false;
    void (async () => {
      if (!loopback(request.socket.remoteAddress)) return answer(response, 403, { message: 'Forbidden' });
      if (request.method !== 'PUT') {
        response.setHeader('Allow', 'PUT');
        return answer(response, 405, { message: 'Method Not Allowed' });
      }
      const text = await bodyOf(request);
      if (text === undefined) return answer(response, 413, { message: `at most ${MAX_BODY_BYTES} bytes` });
      let body: { app_id?: unknown; offset_ms?: unknown };
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        return answer(response, 400, { message: 'the body must be JSON: {"app_id": "...", "offset_ms": n}' });
      }
      const { app_id: appId, offset_ms: offset } = body ?? {};
      if (typeof appId !== 'string' || appId.length === 0 || appId.length > 128) return answer(response, 400, { message: 'app_id must be a string' });
      if (typeof offset !== 'number' || !Number.isInteger(offset) || Math.abs(offset) > MAX_OFFSET_MS) {
        return answer(response, 400, { message: `offset_ms must be an integer of at most ${MAX_OFFSET_MS} ms either way` });
      }
      setClockOffset(appId, offset);
      answer(response, 200, { app_id: appId, offset_ms: offset });
    })().catch(() => {
      if (!response.headersSent) answer(response, 500, { message: 'Internal server error' });
    });
    return true;
  };
}
