/**
 * The timeline table in memory, as DynamoDB answers the commands the timeline
 * store sends it (functions/adapters/dynamo-timeline-store.ts): page
 * items keyed by pk + sk, sk compared as DynamoDB does (UTF-8 bytes), the
 * store's conditions, and Query's key conditions, order, Limit and paging.
 * Handler tests route the timeline table's commands here.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { DeleteCommandInput, GetCommandInput, PutCommandInput, QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { entriesOf, packPages, type TimelinePageItem } from '../../functions/domain/timeline-pages';
import type { TimelineEntry } from '../../functions/domain/timeline';

const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const failedCondition = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

export class TimelinePagesTable {
  readonly pages = new Map<string, TimelinePageItem>();
  /** Items queries returned and items put or deleted, since the last clear. */
  readonly work = { read: 0, written: 0 };

  clear(): void {
    this.pages.clear();
    this.work.read = 0;
    this.work.written = 0;
  }

  /** Every entry stored, page by page in key order. */
  entries(pk?: string): TimelineEntry[] {
    return this.sorted(pk).flatMap(entriesOf);
  }

  entry(pk: string, insertId: string): TimelineEntry | undefined {
    return this.entries(pk).find((entry) => entry.insert_id === insertId);
  }

  /** Entries put straight into the table, packed as the store packs them. */
  seed(entries: TimelineEntry[]): void {
    for (const pk of new Set(entries.map((entry) => entry.pk))) {
      for (const page of packPages(
        pk,
        entries.filter((entry) => entry.pk === pk),
      ))
        this.pages.set(this.key(page.pk, page.sk), structuredClone(page));
    }
  }

  put(input: PutCommandInput): Record<string, never> {
    const page = input.Item as TimelinePageItem;
    this.check(input.ConditionExpression, input.ExpressionAttributeValues, this.pages.get(this.key(page.pk, page.sk)));
    this.work.written += 1;
    this.pages.set(this.key(page.pk, page.sk), structuredClone(page));
    return {};
  }

  get(input: GetCommandInput): { Item?: TimelinePageItem } {
    const page = this.pages.get(this.key(input.Key!.pk as string, input.Key!.sk as string));
    return { Item: page && structuredClone(page) };
  }

  delete(input: DeleteCommandInput): Record<string, never> {
    const key = this.key(input.Key!.pk as string, input.Key!.sk as string);
    this.check(input.ConditionExpression, input.ExpressionAttributeValues, this.pages.get(key));
    this.work.written += 1;
    this.pages.delete(key);
    return {};
  }

  query(input: QueryCommandInput): { Items: TimelinePageItem[]; LastEvaluatedKey?: Record<string, string> } {
    const values = input.ExpressionAttributeValues!;
    const inRange: Record<string, (sk: string) => boolean> = {
      'pk = :pk': () => true,
      'pk = :pk AND sk < :upper': (sk) => byBytes(sk, values[':upper'] as string) < 0,
      'pk = :pk AND sk BETWEEN :from AND :to': (sk) => byBytes(sk, values[':from'] as string) >= 0 && byBytes(sk, values[':to'] as string) <= 0,
    };
    const condition = inRange[input.KeyConditionExpression!];
    if (!condition) throw new Error(`the fake timeline table does not know the key condition ${input.KeyConditionExpression}`);
    let all = this.sorted(values[':pk'] as string).filter((page) => condition(page.sk));
    if (input.ScanIndexForward === false) all = all.reverse();
    const after = input.ExclusiveStartKey?.sk as string | undefined;
    const rest =
      after === undefined ? all : all.filter((page) => (input.ScanIndexForward === false ? byBytes(page.sk, after) < 0 : byBytes(page.sk, after) > 0));
    const items = rest.slice(0, input.Limit ?? rest.length);
    this.work.read += items.length;
    const last = items[items.length - 1];
    return { Items: structuredClone(items), ...(items.length < rest.length ? { LastEvaluatedKey: { pk: last.pk, sk: last.sk } } : {}) };
  }

  private check(condition: string | undefined, values: Record<string, unknown> | undefined, current: TimelinePageItem | undefined): void {
    if (condition === undefined) return;
    if (condition === 'attribute_not_exists(sk)') {
      if (current !== undefined) throw failedCondition();
    } else if (condition === 'ev = :ev') {
      if (current?.ev !== values?.[':ev']) throw failedCondition();
    } else throw new Error(`the fake timeline table does not know the condition ${condition}`);
  }

  private sorted(pk?: string): TimelinePageItem[] {
    return [...this.pages.values()]
      .filter((page) => pk === undefined || page.pk === pk)
      .sort((a, b) => (a.pk === b.pk ? byBytes(a.sk, b.sk) : byBytes(a.pk, b.pk)));
  }

  private key(pk: string, sk: string): string {
    return `${pk}\u0000${sk}`;
  }
}
