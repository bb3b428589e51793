/**
 * The campaign results consumer (functions/domain/campaign-results.ts): each
 * event naming a campaign counts for its step and day; each money event of a
 * player who received a campaign (or was held out of it) within the window
 * counts for that group. Exactly once by the store's conditional markers, so
 * a redelivered batch adds nothing. The batch's tallies together (a campaign's
 * counters written once per transaction of events); a player's money in stream
 * order after the sends before it.
 */
import pLimit from 'p-limit';
import { moneyDeltas, tallyOf, type CampaignResultsStore, type Tally, type TallyCounts, type TallyEntry } from '../../domain/campaign-results';
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
    // Each player's tallies up to their first money event, all together: a broadcast's thousands of sends are one
    // campaign's counters, written a transaction of many events at a time instead of one each.
    const leading: TallyEntry[] = [];
    const rest: StreamItem[][] = [];
    for (const records of players.values()) {
      const split = await splitAtMoney(deps, records);
      leading.push(...split.leading);
      if (split.rest.length > 0) rest.push(split.rest);
    }
    add(counts, await deps.store.tally(leading));
    // Then the players with money, each in stream order: a deposit sees the receipts of the sends before it.
    const limit = pLimit(PLAYERS_IN_PARALLEL);
    const outcomes = await Promise.allSettled(rest.map((records) => limit(() => countPlayer(deps, records, counts))));
    // Every write finished before the batch fails: its redelivery skips what was counted.
    const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    return counts;
  };
}

type EventRecord = Record<string, unknown> & StreamItem['envelope']['record'];

const entryOf = (record: EventRecord, tally: Tally): TallyEntry => ({
  appId: record.app_id,
  profileId: record.profile_id,
  insertId: record.urm_insert_id,
  tally,
});

async function isMoney(deps: CountCampaignsDeps, record: EventRecord): Promise<boolean> {
  if (typeof record.event !== 'string') return false;
  const settings = await deps.settings(record.app_id);
  return settings !== undefined && Object.hasOwn(settings.money_events, record.event);
}

/** A player's tallies before their first money event, and their records from it on. */
async function splitAtMoney(deps: CountCampaignsDeps, items: StreamItem[]): Promise<{ leading: TallyEntry[]; rest: StreamItem[] }> {
  const leading: TallyEntry[] = [];
  for (const [index, item] of items.entries()) {
    const record = item.envelope.record as EventRecord;
    const tally = tallyOf(record);
    if (tally) leading.push(entryOf(record, tally));
    else if (await isMoney(deps, record)) return { leading, rest: items.slice(index) };
  }
  return { leading, rest: [] };
}

function add(counts: CampaignBatchCounts, tallied: TallyCounts): void {
  counts.counted += tallied.counted;
  counts.repeated += tallied.repeated;
}

async function countPlayer(deps: CountCampaignsDeps, items: StreamItem[], counts: CampaignBatchCounts): Promise<void> {
  for (const item of items) {
    const record = item.envelope.record as EventRecord;
    const tally = tallyOf(record);
    if (tally) {
      add(counts, await deps.store.tally([entryOf(record, tally)]));
      continue;
    }
    if (!(await isMoney(deps, record))) continue;
    const settings = await deps.settings(record.app_id);
    const receipts = await deps.store.receipts(record.app_id, record.profile_id);
    for (const delta of moneyDeltas(record, settings!, receipts)) {
      if (await deps.store.addMoney(record.app_id, record.profile_id, record.urm_insert_id, delta)) counts.money++;
      else counts.repeated++;
    }
  }
}
