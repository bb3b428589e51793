/**
 * The campaign results consumer (functions/domain/campaign-results.ts): each
 * event naming a campaign counts for its step and day; each money event of a
 * player who received a campaign (or was held out of it) within the window
 * counts for that group. Exactly once by the store's conditional markers, so
 * a redelivered batch adds nothing. A player's records in stream order; the
 * players of a batch a few at a time.
 */
import pLimit from 'p-limit';
import { moneyDeltas, tallyOf, type CampaignResultsStore } from '../../domain/campaign-results';
import type { MoneySettings } from '../../domain/money-settings';
import type { StreamItem } from '../../stream/kinesis-batch';

export interface CountCampaignsDeps {
  store: CampaignResultsStore;
  /** The application's money settings (cached); undefined for an unknown application. */
  settings: (appId: string) => Promise<MoneySettings | undefined>;
}

export interface CampaignBatchCounts {
  counted: number;
  money: number;
  repeated: number;
}

const PLAYERS_IN_PARALLEL = 10;

export function countCampaigns(deps: CountCampaignsDeps) {
  return async (items: StreamItem[]): Promise<CampaignBatchCounts> => {
    const counts: CampaignBatchCounts = { counted: 0, money: 0, repeated: 0 };
    const players = new Map<string, StreamItem[]>();
    for (const item of items) {
      if (item.envelope.kind !== 'event') continue;
      const { app_id, profile_id } = item.envelope.record;
      const pk = `${app_id}\u0000${profile_id}`;
      players.set(pk, [...(players.get(pk) ?? []), item]);
    }
    const limit = pLimit(PLAYERS_IN_PARALLEL);
    const outcomes = await Promise.allSettled([...players.values()].map((records) => limit(() => countPlayer(deps, records, counts))));
    // Every write finished before the batch fails: its redelivery skips what was counted.
    const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    return counts;
  };
}

async function countPlayer(deps: CountCampaignsDeps, items: StreamItem[], counts: CampaignBatchCounts): Promise<void> {
  for (const item of items) {
    const record = item.envelope.record as Record<string, unknown> & StreamItem['envelope']['record'];
    const tally = tallyOf(record);
    if (tally) {
      if (await deps.store.tally(record.app_id, record.profile_id, record.urm_insert_id, tally)) counts.counted++;
      else counts.repeated++;
      continue;
    }
    if (typeof record.event !== 'string') continue;
    const settings = await deps.settings(record.app_id);
    if (!settings || !Object.hasOwn(settings.money_events, record.event)) continue;
    const receipts = await deps.store.receipts(record.app_id, record.profile_id);
    for (const delta of moneyDeltas(record, settings, receipts)) {
      if (await deps.store.addMoney(record.app_id, record.profile_id, record.urm_insert_id, delta)) counts.money++;
      else counts.repeated++;
    }
  }
}
