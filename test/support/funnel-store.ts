/**
 * The funnel consumer's store (functions/domain/funnel.ts, FunnelStore) in
 * memory, with the DynamoDB adapter's contract: rows by pk + sk, versioned
 * writes that fail on a conflict. It records each call, and lets a test crash
 * or race a write.
 */
import type { AppMoneyDay, AppMoneyReader } from '../../functions/domain/figures';
import {
  appDaySk,
  appPk,
  ledgerPk,
  ledgerSk,
  rowKeyString,
  type FunnelStore,
  type LedgerReader,
  type StoredDayRow,
  type StoredLedger,
  type TraceRow,
} from '../../functions/domain/funnel';

type Row = StoredDayRow | StoredLedger | TraceRow;
const clone = <T>(value: T): T => structuredClone(value);

export class MemoryFunnelStore implements FunnelStore, LedgerReader, AppMoneyReader {
  /** Every row, by pk + NUL + sk. */
  readonly rows = new Map<string, Row>();
  /** Each call, with the keys (pk + NUL + sk) it named, in the order made. */
  readonly calls: { op: keyof FunnelStore | keyof LedgerReader | keyof AppMoneyReader; keys: string[] }[] = [];
  /** Runs before a day row or ledger write is applied: a test's way to crash, stall or race. */
  beforePut: (row: StoredDayRow | StoredLedger) => void | Promise<void> = () => {};

  async ledgers(pks: string[]): Promise<Map<string, StoredLedger>> {
    const keys = pks.map((pk) => rowKeyString({ pk, sk: ledgerSk }));
    this.calls.push({ op: 'ledgers', keys });
    return new Map(keys.flatMap((key) => (this.rows.has(key) ? [[(this.rows.get(key) as StoredLedger).pk, clone(this.rows.get(key) as StoredLedger)]] : [])));
  }

  async ledger(appId: string, profileId: string): Promise<StoredLedger | undefined> {
    this.calls.push({ op: 'ledger', keys: [rowKeyString({ pk: ledgerPk(appId, profileId), sk: ledgerSk })] });
    return clone(this.rows.get(rowKeyString({ pk: ledgerPk(appId, profileId), sk: ledgerSk })) as StoredLedger | undefined);
  }

  async dayRows(keys: { pk: string; sk: string }[]): Promise<Map<string, StoredDayRow>> {
    const named = keys.map(rowKeyString);
    this.calls.push({ op: 'dayRows', keys: named });
    return new Map(named.flatMap((key) => (this.rows.has(key) ? [[key, clone(this.rows.get(key) as StoredDayRow)]] : [])));
  }

  async putTraceRows(rows: TraceRow[]): Promise<void> {
    this.calls.push({ op: 'putTraceRows', keys: rows.map(rowKeyString) });
    for (const row of rows) this.rows.set(rowKeyString(row), clone(row));
  }

  putDayRow(row: StoredDayRow, expectedVersion: number | undefined): Promise<boolean> {
    return this.putVersioned('putDayRow', row, expectedVersion);
  }

  putLedger(ledger: StoredLedger, expectedVersion: number | undefined): Promise<boolean> {
    return this.putVersioned('putLedger', ledger, expectedVersion);
  }

  /** The application's day rows from `from` to `to`, as the adapter's one Query reads them. */
  async appDays(appId: string, from: string, to: string): Promise<AppMoneyDay[]> {
    this.calls.push({ op: 'appDays', keys: [rowKeyString({ pk: appPk(appId), sk: appDaySk(from) }), rowKeyString({ pk: appPk(appId), sk: appDaySk(to) })] });
    return [...this.rows.values()]
      .filter((row) => row.pk === appPk(appId) && row.sk >= appDaySk(from) && row.sk <= appDaySk(to))
      .sort((a, b) => a.sk.localeCompare(b.sk))
      .map((row) => {
        const { pk: _pk, sk: _sk, applied: _applied, version: _version, ...day } = clone(row) as StoredDayRow;
        return day as AppMoneyDay;
      });
  }

  row(pk: string, sk: string): Row | undefined {
    return clone(this.rows.get(rowKeyString({ pk, sk })));
  }

  private async putVersioned(op: 'putDayRow' | 'putLedger', row: StoredDayRow | StoredLedger, expectedVersion: number | undefined): Promise<boolean> {
    const key = rowKeyString(row);
    this.calls.push({ op, keys: [key] });
    await this.beforePut(row);
    const current = this.rows.get(key) as { version?: number } | undefined;
    if (expectedVersion === undefined ? current !== undefined : current?.version !== expectedVersion) return false;
    this.rows.set(key, clone(row));
    return true;
  }
}
