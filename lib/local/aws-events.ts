/**
 * The event functions of functions/manifest/operations.ts in the local stack:
 * what an AWS service would put on the default bus (the local SES's
 * simulated bounces, complaints and deliveries) goes to each function whose
 * rule matches its source and detail-type, invoked as Lambda invokes a rule's
 * target. The events of one publish go in order (a complaint after its
 * delivery); a failed invocation is tried again a few times, then logged and
 * dropped, as Lambda does after its retries of an asynchronous invocation.
 * Never throws into the caller: the stack keeps running.
 */
import type { Context, EventBridgeEvent } from 'aws-lambda';
import type { EventFunction } from '../../functions/manifest/operations';
import { lambdaContext } from './api-gateway';
import { invoke } from './invocation';

export type EventHandler = (event: EventBridgeEvent<string, unknown>, context: Context) => Promise<unknown>;

export interface EventBinding {
  definition: EventFunction;
  handler: EventHandler;
}

export interface AwsEvents {
  /** Hands the events to the matching functions, in order, in the background. */
  publish(events: EventBridgeEvent<string, unknown>[]): void;
  /** Resolves when every event published so far has been delivered or dropped. */
  drained(): Promise<void>;
  /** Takes no more events, cuts retries short and waits for the invocations in flight. */
  stop(): Promise<void>;
}

const matches = (definition: EventFunction, event: EventBridgeEvent<string, unknown>) =>
  definition.source === event.source && definition.detailTypes.includes(event['detail-type']);

export function startAwsEvents(bindings: EventBinding[], options: { log: (line: string) => void; attempts?: number; retryDelayMs?: number }): AwsEvents {
  const attempts = options.attempts ?? 3;
  const retryDelayMs = options.retryDelayMs ?? 500;
  let running = true;
  const inFlight = new Set<Promise<void>>();
  const waits = new Set<{ timer: NodeJS.Timeout; wake: () => void }>();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const wait = { timer: setTimeout(() => wake(), ms), wake: () => wake() };
      function wake() {
        clearTimeout(wait.timer);
        waits.delete(wait);
        resolve();
      }
      waits.add(wait);
    });

  async function deliver(binding: EventBinding, event: EventBridgeEvent<string, unknown>): Promise<void> {
    const { definition, handler } = binding;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        await invoke(handler, event, lambdaContext(`${definition.id}Function`, definition.timeoutSeconds * 1000));
        return;
      } catch (error) {
        const last = attempt === attempts || !running;
        options.log(
          `${definition.id} failed on a ${event['detail-type']} event (attempt ${attempt} of ${attempts}${last ? ', dropped' : ''}): ${(error as Error).message}`,
        );
        if (last) return;
        await pause(retryDelayMs * attempt);
      }
    }
  }

  return {
    publish(events) {
      if (!running) return;
      const run = (async () => {
        for (const event of events) {
          for (const binding of bindings.filter((candidate) => matches(candidate.definition, event))) await deliver(binding, event);
        }
      })();
      inFlight.add(run);
      void run.finally(() => inFlight.delete(run));
    },
    async drained() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    async stop() {
      running = false;
      for (const wait of [...waits]) wait.wake();
      await Promise.all([...inFlight]);
    },
  };
}
