/**
 * The scheduled functions of functions/manifest/operations.ts in the
 * local stack: each handler invoked on a timer, as EventBridge would, but
 * every `intervalMs` (a second by default) instead of every minute, so a
 * postback arrives within seconds. One run of a function at a time; a failed
 * run is logged and the next tick tries again. Stops with the stack.
 */
import type { Context, ScheduledEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import type { ScheduledFunction } from '../../functions/manifest/operations';
import { lambdaContext } from './api-gateway';
import { invoke } from './invocation';

export type ScheduledHandler = (event: ScheduledEvent, context: Context) => Promise<unknown>;

export interface ScheduleBinding {
  definition: ScheduledFunction;
  handler: ScheduledHandler;
}

function scheduledEvent(definition: ScheduledFunction, region: string): ScheduledEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '000000000000',
    time: new Date().toISOString(),
    region,
    resources: [`arn:aws:events:${region}:000000000000:rule/${definition.id}Schedule`],
    detail: {},
  };
}

/** Starts one loop per function; the returned function stops them and waits for runs in flight. */
export function startSchedules(bindings: ScheduleBinding[], options: { intervalMs: number; region: string; log: (line: string) => void }): () => Promise<void> {
  let running = true;
  const timers = new Set<NodeJS.Timeout>();
  const wakers = new Set<() => void>();
  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, options.intervalMs);
      function done() {
        timers.delete(timer);
        wakers.delete(done);
        resolve();
      }
      timers.add(timer);
      wakers.add(done);
    });
  const loops = bindings.map(async ({ definition, handler }) => {
    while (running) {
      try {
        await invoke(handler, scheduledEvent(definition, options.region), lambdaContext(`${definition.id}Function`, definition.timeoutSeconds * 1000));
      } catch (error) {
        options.log(`${definition.id} failed: ${(error as Error).message}`);
      }
      if (running) await pause();
    }
  });
  return async () => {
    running = false;
    for (const timer of timers) clearTimeout(timer);
    for (const wake of [...wakers]) wake();
    await Promise.all(loops);
  };
}
