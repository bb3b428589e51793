/**
 * The segment consumer: keeps each player's segment state and memberships as
 * their profile records and events arrive (functions/domain/segments/keeper.ts).
 *
 * Per batch: the records grouped by application and player; per application,
 * its definitions (one consistent Query, read after the records, so a
 * definition made before a record was received is always seen; cached for
 * this invocation only), none of it when it has no active segment; only the
 * players with a record that may matter (a profile record, an event some
 * segment counts) go on to the keeper. The engine's own `urm_segment_*`
 * events are never counted.
 */
import type { MoneySettings } from '../../domain/money-settings';
import { mayMatter } from '../../domain/segments/engine';
import { addCounts, keepPlayers, zeroCounts, type KeepCounts, type KeeperDeps } from '../../domain/segments/keeper';
import type { SegmentDefinition, SegmentStore } from '../../domain/segments/model';
import { needsOf } from '../../domain/segments/needs';
import { compareSequence } from '../../domain/profile-state';
import type { StreamItem } from '../../stream/kinesis-batch';

export interface KeepSegmentsDeps extends KeeperDeps {
  definitions: Pick<SegmentStore, 'list'>;
}

export interface SegmentBatchOutcome {
  /** The first sequence number of each player whose records must come again, lowest first. */
  failed: string[];
  counts: KeepCounts & { apps_skipped: number };
}

export function keepSegments(deps: KeepSegmentsDeps) {
  return async (items: StreamItem[]): Promise<SegmentBatchOutcome> => {
    const byApp = new Map<string, Map<string, StreamItem[]>>();
    for (const item of items) {
      const { app_id: appId, profile_id: profileId } = item.envelope.record;
      const players = byApp.get(appId) ?? new Map<string, StreamItem[]>();
      players.set(profileId, [...(players.get(profileId) ?? []), item]);
      byApp.set(appId, players);
    }
    const failed: string[] = [];
    const counts = { ...zeroCounts(), apps_skipped: 0 };
    for (const [appId, players] of byApp) {
      const definitions: SegmentDefinition[] = await deps.definitions.list(appId);
      const settings: MoneySettings | undefined = definitions.length > 0 ? await deps.settings(appId) : undefined;
      if (!settings) {
        counts.apps_skipped++;
        continue;
      }
      const needs = needsOf(definitions);
      const work = [...players]
        .filter(([, group]) => group.some((item) => mayMatter(item, needs, settings)))
        .map(([profileId, group]) => ({ profileId, items: group }));
      const done = await keepPlayers(deps, appId, definitions, work);
      failed.push(...done.failed);
      addCounts(counts, done.counts);
    }
    return { failed: failed.sort(compareSequence), counts };
  };
}
