/**
 * The funnel's sub-id day rows (`s#<day>#<link_id>#<sub_id>` under the
 * affiliate's `a#<app_id>#<affiliate_id>` partition, written by the funnel
 * consumer) as the programme view reads them: one query per affiliate and
 * period. Before any such row exists the answer is empty.
 */
import { paginateQuery, type DynamoDBDocumentClient, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { affiliatePk } from '../domain/funnel';
import type { SubIdDayRow, SubIdReader } from '../domain/programme';

type Item = Record<string, NativeAttributeValue>;

/** The row the port promises: counts as numbers, money as a decimal string, whatever else the item holds left out. */
const rowOf = (item: Item, appId: string, affiliateId: string): SubIdDayRow => {
  const [, day, linkId, ...subId] = String(item.sk).split('#');
  return {
    app_id: appId,
    affiliate_id: affiliateId,
    day: typeof item.day === 'string' ? item.day : day,
    link_id: typeof item.link_id === 'string' ? item.link_id : linkId,
    sub_id: typeof item.sub_id === 'string' ? item.sub_id : subId.join('#'),
    clicks: Number(item.clicks ?? 0),
    registrations: Number(item.registrations ?? 0),
    ftds: Number(item.ftds ?? 0),
    deposits: typeof item.deposits === 'string' ? item.deposits : '0',
  };
};

export class DynamoSubIdReader implements SubIdReader {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async subIdDays(appId: string, affiliateId: string, from: string, to: string): Promise<SubIdDayRow[]> {
    const rows: SubIdDayRow[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        // As the day rows: `#` sorts before any link id after the day, U+FFFF after all of them.
        ExpressionAttributeValues: { ':pk': affiliatePk(appId, affiliateId), ':from': `s#${from}#`, ':to': `s#${to}#\uffff` },
      },
    );
    for await (const page of pages) rows.push(...(page.Items ?? []).map((item) => rowOf(item, appId, affiliateId)));
    return rows;
  }
}
