/**
 * LinkStore on DynamoDB: one item per link, keyed by its id (the click
 * address carries only the id), with `owner` = `<app_id>#<affiliate_id>` for
 * the `by-affiliate` index, which lists an affiliate's links oldest first.
 * A link's keys never change after it is created.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, paginateQuery, PutCommand, type DynamoDBDocumentClient, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { LinkRecord, LinkStore } from '../domain/affiliate-program';
import { Conflict } from '../domain/errors';

export const linkOwner = (appId: string, affiliateId: string) => `${appId}#${affiliateId}`;

/** The link without the table's own attributes. */
function toLink(item: Record<string, NativeAttributeValue>): LinkRecord {
  // An item create() wrote: the link and its owner.
  const { link_id, app_id, affiliate_id, name, landing_url, created_at } = item as LinkRecord;
  return { link_id, app_id, affiliate_id, name, landing_url, created_at };
}

export class DynamoLinkStore implements LinkStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Throws Conflict if the id is taken (about one chance in 2^71 per link). */
  async create(link: LinkRecord): Promise<void> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...link, owner: linkOwner(link.app_id, link.affiliate_id) },
          ConditionExpression: 'attribute_not_exists(link_id)',
        }),
      );
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) throw new Conflict(`link id ${link.link_id} is taken`);
      throw error;
    }
  }

  async get(linkId: string): Promise<LinkRecord | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { link_id: linkId } }));
    return out.Item ? toLink(out.Item) : undefined;
  }

  async listByAffiliate(appId: string, affiliateId: string): Promise<LinkRecord[]> {
    const links: LinkRecord[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.tableName,
        IndexName: 'by-affiliate',
        KeyConditionExpression: '#owner = :owner',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':owner': linkOwner(appId, affiliateId) },
      },
    );
    for await (const page of pages) links.push(...(page.Items ?? []).map(toLink));
    return links;
  }
}
