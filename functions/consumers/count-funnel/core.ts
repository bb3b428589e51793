/**
 * The funnel consumer: counts clicks, registrations, first deposits and money
 * per affiliate, link and UTC day, exactly once (functions/domain/funnel.ts).
 *
 * Per batch: the application's money settings (cached), then only for the
 * players with something to count (money events, the attribution event) one
 * BatchGet of their ledgers; the contributions; rejection rows and trace rows
 * (idempotent puts, marked due for a postback), with the CPA and deposit
 * postback rows of affiliates that receive those events; one BatchGet of the day rows they touch (and the
 * sub-id rows they may touch) and one conditional write per day row (read again and re-applied on a
 * conflict), then one per sub-id row it decided on; ledgers last. A batch with nothing to count makes no DynamoDB call at all.
 */
import pLimit from 'p-limit';
import { backoffDelay, backoffTimer, type RetryPolicy } from '../../adapters/retry';
import type { FtdRow } from '../../domain/affiliate-program';
import {
  affiliatePk,
  applyContributions,
  applySubIdContributions,
  clickContribution,
  countPlayer,
  countsEvent,
  dayRowKey,
  ledgerPk,
  rowKeyString,
  subIdRowCandidates,
  subIdRowKey,
  traceRowOf,
  type Contribution,
  type FunnelStore,
  type StoredDayRow,
  type StoredLedger,
  type TraceRow,
} from '../../domain/funnel';
import type { MoneySettings } from '../../domain/money-settings';
import { postbackDueMark, postbackRowOf, type PostbackEvent } from '../../domain/postbacks';
import { rejectionOf } from '../../domain/rejections';
import type { RejectionSink } from '../../domain/timeline';
import type { StreamItem } from '../../stream/kinesis-batch';

export interface CountFunnelDeps {
  store: FunnelStore;
  /** The application's money settings (a short-lived cache in front of the apps table); undefined for an unknown application. */
  settings: (appId: string) => Promise<MoneySettings | undefined>;
  rejections: RejectionSink;
  now: () => Date;
  /**
   * The postback events an affiliate receives now (none without a URL), through a short-lived cache: a CPA or
   * deposit row is written only for an affiliate that receives the event. Absent: none are written.
   */
  postbackEvents?: (appId: string, affiliateId: string) => Promise<readonly PostbackEvent[]>;
  /** Between attempts at a day row another shard's consumer changed meanwhile. */
  conflictRetry?: RetryPolicy;
}

export interface FunnelBatchCounts {
  players: number;
  contributions: number;
  day_rows_written: number;
  rejected: number;
}

const ROWS_IN_PARALLEL = 10;
// Every shard's consumer may write the busiest affiliate's day row in the same moment: room for many rounds.
const defaultConflictRetry: RetryPolicy = { maxAttempts: 12, baseDelayMs: 20, maxDelayMs: 1000 };

export function countFunnel(deps: CountFunnelDeps) {
  return async (items: StreamItem[]): Promise<FunnelBatchCounts> => {
    const contributions: Contribution[] = [];
    const rejected: { item: StreamItem; reason: string }[] = [];
    const players = new Map<string, { appId: string; profileId: string; settings: MoneySettings; items: StreamItem[] }>();
    for (const item of items) {
      const { kind, record } = item.envelope;
      if (kind === 'click') {
        const click = clickContribution(item);
        if ('reason' in click) rejected.push({ item, reason: click.reason });
        else contributions.push(click);
        continue;
      }
      if (kind !== 'event') continue;
      const settings = await deps.settings(record.app_id);
      if (!settings || !countsEvent(settings, record)) continue;
      const pk = ledgerPk(record.app_id, record.profile_id);
      const player = players.get(pk) ?? { appId: record.app_id, profileId: record.profile_id, settings, items: [] };
      player.items.push(item);
      players.set(pk, player);
    }

    const now = deps.now();
    const stored = players.size > 0 ? await deps.store.ledgers([...players.keys()]) : new Map<string, StoredLedger>();
    const ledgers: { ledger: StoredLedger; expected: number | undefined }[] = [];
    const trace: TraceRow[] = [];
    for (const [pk, player] of players) {
      const before = stored.get(pk);
      const outcome = countPlayer({ stored: before, appId: player.appId, profileId: player.profileId, items: player.items, settings: player.settings, now });
      contributions.push(...outcome.contributions);
      // Each new registration and FTD row is also due for its affiliate's postback (the outbox: functions/scheduled/send-postbacks).
      trace.push(...[...outcome.registrations, ...outcome.ftds].map((row) => ({ ...traceRowOf(row), ...postbackDueMark(now) })));
      trace.push(...(await postbackRows(deps, outcome.ftds, outcome.deposits, now)));
      rejected.push(...outcome.rejections);
      if (outcome.ledger) ledgers.push({ ledger: outcome.ledger, expected: before?.version });
    }

    // Idempotent, and before the ledgers: a crash in between makes the redelivery write them again, the same.
    for (const { item, reason } of rejected) await deps.rejections.put(rejectionOf(item, reason, now));
    if (trace.length > 0) await deps.store.putTraceRows(trace);
    const written = await writeDayRows(deps, contributions);
    const limit = pLimit(ROWS_IN_PARALLEL);
    await settleAll(
      ledgers.map(({ ledger, expected }) =>
        limit(async () => {
          // One consumer per shard, and a player's records share a shard: a conflict means the stream was resharded
          // or a replay ran at the same time. The batch fails and comes again; the day rows skip what they have.
          if (!(await deps.store.putLedger(ledger, expected))) throw new Error('a player ledger changed while the batch was counted');
        }),
      ),
    );
    return { players: players.size, contributions: contributions.length, day_rows_written: written, rejected: rejected.length };
  };
}

/** The CPA rows (one per FTD) and deposit rows of the affiliates that receive those events. */
async function postbackRows(deps: CountFunnelDeps, ftds: FtdRow[], deposits: FtdRow[], now: Date): Promise<TraceRow[]> {
  const wanted = deps.postbackEvents;
  if (!wanted || ftds.length + deposits.length === 0) return [];
  const rows: TraceRow[] = [];
  for (const [event, candidates] of [
    ['cpa', ftds],
    ['deposit', deposits],
  ] as const) {
    for (const row of candidates) {
      if ((await wanted(row.app_id, row.affiliate_id)).includes(event)) rows.push(postbackRowOf(event, affiliatePk(row.app_id, row.affiliate_id), row, now));
    }
  }
  return rows;
}

/**
 * One conditional write per day row, whatever the number of contributions,
 * then one per sub-id row the day row decided on; returns how many rows were
 * written.
 */
async function writeDayRows(deps: CountFunnelDeps, contributions: Contribution[]): Promise<number> {
  if (contributions.length === 0) return 0;
  const byRow = new Map<string, Contribution[]>();
  for (const contribution of contributions) {
    const key = rowKeyString(dayRowKey(contribution));
    byRow.set(key, [...(byRow.get(key) ?? []), contribution]);
  }
  // The sub-id rows ride in the day rows' BatchGet: no call more, whichever of a sub-id's own row or `(other)` it ends in.
  const stored = await deps.store.dayRows([...[...byRow.values()].map((group) => dayRowKey(group[0])), ...subIdRowCandidates(contributions)]);
  const limit = pLimit(ROWS_IN_PARALLEL);
  // Its own limit: a day row's task waits for its sub-id rows, which must not wait for a slot it holds.
  const subIdLimit = pLimit(ROWS_IN_PARALLEL);
  let written = 0;
  await settleAll(
    [...byRow].map(([key, group]) =>
      limit(async () => {
        const { row: dayRow, wrote } = await writeRow(deps, dayRowKey(group[0]), stored.get(key), (current) => applyContributions(current, group));
        if (wrote) written++;
        // After the day row, never before: its `sub_ids` as written decide each contribution's sub-id row.
        const bySubIdRow = new Map<string, { key: { pk: string; sk: string }; subId: string; group: Contribution[] }>();
        for (const contribution of group) {
          const subKey = subIdRowKey(contribution, dayRow);
          if (!subKey) continue;
          const name = rowKeyString(subKey);
          const entry = bySubIdRow.get(name) ?? { key: subKey, subId: subKey.sk.slice(subKey.sk.lastIndexOf('#') + 1), group: [] };
          entry.group.push(contribution);
          bySubIdRow.set(name, entry);
        }
        await settleAll(
          [...bySubIdRow].map(([name, entry]) =>
            subIdLimit(async () => {
              const outcome = await writeRow(deps, entry.key, stored.get(name), (current) =>
                applySubIdContributions(current, entry.key, entry.subId, entry.group),
              );
              if (outcome.wrote) written++;
            }),
          ),
        );
      }),
    ),
  );
  return written;
}

/** A conditional write of one row, read again and re-applied on a conflict; the row as it then stands. */
async function writeRow(
  deps: CountFunnelDeps,
  key: { pk: string; sk: string },
  stored: StoredDayRow | undefined,
  apply: (current: StoredDayRow | undefined) => StoredDayRow | undefined,
): Promise<{ row: StoredDayRow | undefined; wrote: boolean }> {
  const policy = deps.conflictRetry ?? defaultConflictRetry;
  let current = stored;
  for (let attempt = 1; ; attempt++) {
    const row = apply(current);
    if (!row) return { row: current, wrote: false };
    if (await deps.store.putDayRow(row, current?.version)) return { row, wrote: true };
    if (attempt >= policy.maxAttempts) throw new Error(`a funnel day row changed concurrently ${attempt} times in a row`);
    await (policy.sleep ?? backoffTimer.sleep)(backoffDelay(policy, attempt));
    current = (await deps.store.dayRows([key])).get(rowKeyString(key));
  }
}

/**
 * Like Promise.all, but waits for every write to finish before throwing the
 * first error: a write still in flight when the invocation ends could land
 * after the redelivery has read the rows, and make it fail again.
 */
async function settleAll(writes: Promise<unknown>[]): Promise<void> {
  const outcomes = await Promise.allSettled(writes);
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}
