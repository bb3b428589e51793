/**
 * The segment timer: runs every minute (an EventBridge schedule in AWS, every
 * second in the local stack). It does two things, each bounded by the time
 * left and resumable by the next run:
 *
 * 1. Players due: each `due` partition's states whose `due_at` has come (time
 *    alone may change a membership, or a crash left an outbox), a page at a
 *    time, through the same keeper as the consumer; a change happens at the
 *    due moment.
 * 2. Backfills: a `backfilling` definition whose start has come (its figures'
 *    `since` plus the pipeline's margin) is evaluated over the application's
 *    players, a page of the profiles' `by-app` index at a time, the cursor
 *    kept on the definition; silently (players who match when a segment is
 *    made or changed join without an event: journeys start on live changes).
 *    A player evaluated twice changes nothing: the state says which version
 *    of each segment it was evaluated at. When the listing ends: `ready`.
 */
import type { PlayerDirectory } from '../../back-office/players';
import { addCounts, keepPlayers, zeroCounts, type KeepCounts, type KeeperDeps } from '../../domain/segments/keeper';
import { DUE_PARTS, type SegmentDefinition, type SegmentStore } from '../../domain/segments/model';
import type { PlayerState } from '../../domain/segments/state';

export interface SegmentTimersDeps extends KeeperDeps {
  definitions: Pick<SegmentStore, 'list'>;
  directory: PlayerDirectory;
  /** How long the invocation has left, in ms: nothing new starts with less than `reserveMs`. */
  remainingMs?: () => number;
  pageSize?: number;
}

export interface TimerRunCounts extends KeepCounts {
  due: number;
  backfilled: number;
  backfills_finished: number;
}

export const segmentTimerDefaults = {
  pageSize: 100,
  /** A page of 100 players takes a few seconds at most (two BatchGets, the writes); a timeline walk, more. */
  reserveMs: 20_000,
  /** Backfills looked at per run (each goes on where the last run left it). */
  backfillsPerRun: 10,
} as const;

export function runSegmentTimers(deps: SegmentTimersDeps) {
  return async (): Promise<TimerRunCounts> => {
    const counts: TimerRunCounts = { ...zeroCounts(), due: 0, backfilled: 0, backfills_finished: 0 };
    const pageSize = deps.pageSize ?? segmentTimerDefaults.pageSize;
    const timeLeft = () => (deps.remainingMs?.() ?? Number.POSITIVE_INFINITY) > segmentTimerDefaults.reserveMs;
    const until = deps.now().toISOString();
    // One read of each application's definitions per run.
    const definitionsOf = new Map<string, Promise<SegmentDefinition[]>>();
    const definitions = (appId: string) => {
      if (!definitionsOf.has(appId)) definitionsOf.set(appId, deps.definitions.list(appId));
      return definitionsOf.get(appId)!;
    };

    for (let part = 0; part < DUE_PARTS && timeLeft(); part++) {
      let start: Record<string, string> | undefined;
      do {
        const page = await deps.states.due(part, until, pageSize, start);
        start = page.next;
        if (page.pks.length === 0) continue;
        counts.due += page.pks.length;
        const states = await deps.states.states(page.pks);
        const byApp = new Map<string, PlayerState[]>();
        for (const state of states.values()) byApp.set(state.app_id, [...(byApp.get(state.app_id) ?? []), state]);
        for (const [appId, due] of byApp) {
          const players = due.map((state) => ({
            profileId: state.profile_id,
            items: [],
            ...(state.next_at !== undefined && state.next_at <= until ? { at: state.next_at } : {}),
          }));
          const done = await keepPlayers(deps, appId, await definitions(appId), players, { preloaded: states });
          addCounts(counts, done.counts);
        }
      } while (start && timeLeft());
    }

    const backfills = timeLeft() ? await deps.states.backfillsDue(until, segmentTimerDefaults.backfillsPerRun) : [];
    for (const { app_id: appId, segment_id: segmentId } of backfills) {
      while (timeLeft()) {
        // Read again each page: an edit of the condition makes a new version, whose backfill starts over.
        const all = await deps.definitions.list(appId);
        const definition = all.find((segment) => segment.segment_id === segmentId);
        if (definition?.status !== 'backfilling') break;
        const backfill = definition.backfill ?? { started_at: definition.updated_at, done: 0 };
        const page = await deps.directory.page(appId, { limit: pageSize, after: backfill.cursor });
        const players = page.profileIds.map((profileId) => ({ profileId, items: [] }));
        const done = await keepPlayers(deps, appId, all, players, { backfilling: segmentId });
        addCounts(counts, done.counts);
        // A player written meanwhile by the consumer: this page again next run (evaluating twice changes nothing).
        if (done.counts.conflicts > 0) break;
        counts.backfilled += players.length;
        const progressed = { ...backfill, done: backfill.done + players.length };
        const finished = page.last === undefined;
        const next: SegmentDefinition = finished
          ? {
              ...definition,
              status: 'ready',
              backfill: { ...withoutCursor(progressed), total: progressed.done, finished_at: deps.now().toISOString() },
            }
          : { ...definition, backfill: { ...progressed, cursor: page.last } };
        if (!(await deps.states.saveBackfill(next))) break;
        if (finished) {
          counts.backfills_finished++;
          break;
        }
      }
    }
    return counts;
  };
}

function withoutCursor(backfill: NonNullable<SegmentDefinition['backfill']>): NonNullable<SegmentDefinition['backfill']> {
  const { cursor: _cursor, ...rest } = backfill;
  return rest;
}
