/**
 * Journey timers: the instances whose wait has ended (every minute in AWS,
 * every second locally), read from the campaigns table's sparse `due` index,
 * a few shards, oldest first: the cost follows the timers that fall due,
 * never the players waiting. Per instance: a conditional update takes it (its
 * due time moves ahead as a lease, so overlapping runs never both take it and
 * a run that dies leaves it to the next), then the runner moves it once (a
 * write conditioned on its revision). Due times are in the application's
 * clock. An instance entered by a run that died before its first move is
 * due after its entry lease, and is finished here.
 */
import type { JourneyVersion } from '../../domain/journeys/engine';
import { zeroRunCounts, type AppContext, type JourneyRunner, type RunCounts } from '../../domain/journeys/runner';
import { TIMER_SHARDS, type JourneyHead, type JourneyStore, type StoredInstance } from '../../domain/journeys/store';

export interface JourneyTimersDeps {
  journeys: Pick<JourneyStore, 'due' | 'lease' | 'get' | 'version'>;
  runner: JourneyRunner;
  /** The application's clock (functions/runtime/clock.ts). */
  appTime: (appId: string) => Date;
  /** How far ahead of real time the furthest application's clock is. */
  aheadMs: () => number;
  now: () => Date;
  remainingMs?: () => number;
  batchSize?: number;
}

export interface JourneyTimersCounts extends RunCounts {
  due: number;
  taken: number;
  held: number;
  errors: number;
}

export const journeyTimersDefaults = {
  /** Instances looked at per shard per page. */
  batchSize: 50,
  /** Pages per shard per run: the next run takes the rest. */
  pages: 10,
  /** A taken instance is left alone this long: a run that dies hands it to a later one. */
  leaseMs: 2 * 60_000,
  /** A timer of a paused or archived journey is looked at again after this. */
  heldMs: 10 * 60_000,
  reserveMs: 15_000,
} as const;

export function runJourneyTimers(deps: JourneyTimersDeps) {
  return async (): Promise<JourneyTimersCounts> => {
    const counts: JourneyTimersCounts = { ...zeroRunCounts(), due: 0, taken: 0, held: 0, errors: 0 };
    const timeLeft = () => (deps.remainingMs?.() ?? Number.POSITIVE_INFINITY) > journeyTimersDefaults.reserveMs;
    const heads = new Map<string, Promise<JourneyHead | undefined>>();
    const contexts = new Map<string, Promise<AppContext | undefined>>();
    const versions = new Map<string, Promise<JourneyVersion | undefined>>();
    const headOf = (appId: string, journeyId: string) => {
      const key = `${appId}#${journeyId}`;
      if (!heads.has(key)) heads.set(key, deps.journeys.get(appId, journeyId));
      return heads.get(key)!;
    };
    const contextOf = (appId: string) => {
      if (!contexts.has(appId)) contexts.set(appId, deps.runner.appContext(appId));
      return contexts.get(appId)!;
    };
    const versionOf = (appId: string, journeyId: string, version: number) => {
      const key = `${appId}#${journeyId}#${version}`;
      if (!versions.has(key))
        versions.set(
          key,
          deps.journeys.version(appId, journeyId, version).then((stored) => stored && { journeyId, version, definition: stored.definition }),
        );
      return versions.get(key)!;
    };

    const one = async (stored: StoredInstance) => {
      const appId = stored.app_id;
      const { instance } = stored;
      const appNow = deps.appTime(appId);
      if (stored.due_at === undefined || Date.parse(stored.due_at) > appNow.getTime()) return;
      counts.due++;
      const head = await headOf(appId, instance.journeyId);
      if (head?.status !== 'live') {
        // Held while the journey is not live: looked at again later, never moved.
        if (await deps.journeys.lease(stored, new Date(appNow.getTime() + journeyTimersDefaults.heldMs).toISOString())) counts.held++;
        return;
      }
      const [context, journey] = await Promise.all([contextOf(appId), versionOf(appId, instance.journeyId, instance.version)]);
      if (!context || !journey) return;
      if (!(await deps.journeys.lease(stored, new Date(appNow.getTime() + journeyTimersDefaults.leaseMs).toISOString()))) return;
      counts.taken++;
      await deps.runner.move(context, journey, stored, { kind: 'timer', at: appNow.toISOString() }, counts);
    };

    // Due times are in each application's time: look as far ahead as the furthest clock, then ask each its own.
    const by = new Date(deps.now().getTime() + deps.aheadMs()).toISOString();
    const batch = deps.batchSize ?? journeyTimersDefaults.batchSize;
    for (let shard = 0; shard < TIMER_SHARDS; shard++) {
      let start: Record<string, string> | undefined;
      for (let page = 0; page < journeyTimersDefaults.pages && timeLeft(); page++) {
        const due = await deps.journeys.due(shard, by, batch, start);
        for (const stored of due.instances) {
          if (!timeLeft()) break;
          try {
            await one(stored);
          } catch {
            // A failed read, send or write: the lease runs out and a later run moves it (derived ids keep it once).
            counts.errors++;
          }
        }
        start = due.next;
        if (!start) break;
      }
    }
    return counts;
  };
}
