/**
 * The `funnel` table (functions/manifest/resources.ts): what the
 * funnel consumer writes (FunnelStore) and what reports read (FunnelReader).
 *
 *   a#<app_id>#<affiliate_id>  d#<day>#<link_id>     day rows
 *                              r#<day>#<profile_id>  registrations
 *                              f#<day>#<profile_id>  first deposits
 *                              s#<day>#<link_id>#<sub_id>  sub-id rows
 *   p#<app_id>#<profile_id>    ledger                the player's ledger
 *   app#<app_id>               d#<day>               the application's day rows (every player)
 *
 * Days are YYYY-MM-DD, so a period is one sort-key range per kind.
 */
import { GetCommand, paginateQuery, type DynamoDBDocumentClient, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { FtdRow, FunnelDayRow, FunnelReader, RegistrationRow, SubIdDayRow } from '../domain/affiliate-program';
import type { AppMoneyDay, AppMoneyReader } from '../domain/figures';
import {
  affiliatePk,
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
} from '../domain/funnel';
import { batchGetAll, batchWriteAll, putVersioned, unprocessedRetry } from './batch-write';
import type { RetryPolicy } from './retry';

type Item = Record<string, NativeAttributeValue>;
type Key = { pk: string; sk: string };

/** The row as the port promises it: without keys and bookkeeping (the postback outbox's marks included). */
function withoutStorage<T>(item: Item): T {
  const { pk: _pk, sk: _sk, applied: _applied, version: _version, postback_queue: _queue, postback_due: _due, postback_attempts: _attempts, ...row } = item;
  return row as T;
}

export class DynamoFunnelStore implements FunnelStore, FunnelReader, LedgerReader, AppMoneyReader {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly retry: RetryPolicy = unprocessedRetry,
  ) {}

  async ledgers(pks: string[]): Promise<Map<string, StoredLedger>> {
    const found = await this.getMany<StoredLedger>([...new Set(pks)].map((pk) => ({ pk, sk: ledgerSk })));
    return new Map([...found.values()].map((ledger) => [ledger.pk, ledger]));
  }

  async ledger(appId: string, profileId: string): Promise<StoredLedger | undefined> {
    // Eventually consistent: the page shows what the consumer counted, which trails the events by seconds anyway.
    const found = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: ledgerPk(appId, profileId), sk: ledgerSk } }));
    return found.Item as StoredLedger | undefined;
  }

  async dayRows(keys: Key[]): Promise<Map<string, StoredDayRow>> {
    return this.getMany<StoredDayRow>(keys);
  }

  async putTraceRows(rows: TraceRow[]): Promise<void> {
    // Two puts of one key in a BatchWriteItem fail it; the rows of one key are the same row.
    const unique = new Map(rows.map((row) => [rowKeyString(row), row]));
    await batchWriteAll(
      this.db,
      this.tableName,
      [...unique.values()].map((Item) => ({ PutRequest: { Item } })),
      this.retry,
    );
  }

  putDayRow(row: StoredDayRow, expectedVersion: number | undefined): Promise<boolean> {
    return this.putVersioned(row, expectedVersion);
  }

  putLedger(ledger: StoredLedger, expectedVersion: number | undefined): Promise<boolean> {
    return this.putVersioned(ledger, expectedVersion);
  }

  async days(appId: string, affiliateId: string, from: string, to: string): Promise<FunnelDayRow[]> {
    return (await this.range(appId, affiliateId, 'd', from, to)).map((item) => withoutStorage<FunnelDayRow>(item));
  }

  async ftds(appId: string, affiliateId: string, from: string, to: string): Promise<FtdRow[]> {
    return (await this.range(appId, affiliateId, 'f', from, to)).map((item) => withoutStorage<FtdRow>(item));
  }

  async registrations(appId: string, affiliateId: string, from: string, to: string): Promise<RegistrationRow[]> {
    return (await this.range(appId, affiliateId, 'r', from, to)).map((item) => withoutStorage<RegistrationRow>(item));
  }

  async subIdDays(appId: string, affiliateId: string, from: string, to: string): Promise<SubIdDayRow[]> {
    return (await this.range(appId, affiliateId, 's', from, to)).map((item) => withoutStorage<SubIdDayRow>(item));
  }

  async appDays(appId: string, from: string, to: string): Promise<AppMoneyDay[]> {
    const items: Item[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': appPk(appId), ':from': appDaySk(from), ':to': appDaySk(to) },
      },
    );
    for await (const page of pages) items.push(...(page.Items ?? []));
    return items.map((item) => withoutStorage<AppMoneyDay>(item));
  }

  private async range(appId: string, affiliateId: string, prefix: 'd' | 'r' | 'f' | 's', from: string, to: string): Promise<Item[]> {
    const items: Item[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        // `#` sorts before every character a link or profile id may start with after the day; U+FFFF after all of them.
        ExpressionAttributeValues: { ':pk': affiliatePk(appId, affiliateId), ':from': `${prefix}#${from}#`, ':to': `${prefix}#${to}#\uffff` },
      },
    );
    for await (const page of pages) items.push(...(page.Items ?? []));
    return items;
  }

  /** Rows of one kind (ledgers or day rows, which this store wrote) by key string: the keys say which kind. */
  private async getMany<Row extends Key>(keys: Key[]): Promise<Map<string, Row>> {
    const items = await batchGetAll(
      this.db,
      this.tableName,
      keys.map(({ pk, sk }) => ({ pk, sk })),
      { consistent: true, what: 'funnel', retry: this.retry },
    );
    return new Map(items.map((item) => item as Row).map((row) => [rowKeyString(row), row]));
  }

  private putVersioned(item: Item, expectedVersion: number | undefined): Promise<boolean> {
    return putVersioned(this.db, this.tableName, item, expectedVersion);
  }
}
