/**
 * Senders assigned to applications, one partition per domain:
 *   (`domain`, `sender` = the domain)   the domain's item: its claim when it
 *                                       carries `app_id`, and `writes`, a count
 *                                       of the claims ever made at the domain;
 *   (`domain`, `sender` = an address)   the claim of one address.
 * An address is claimed in one transaction that puts its item (only if none
 * exists) and counts it on the domain's item (only while no other
 * application holds the domain). A domain is claimed after reading its
 * partition, by one write conditioned on the count read: an address claimed
 * meanwhile changes the count, and the claim reads again. So no two
 * applications ever hold one sender, nor a domain and an address at it.
 */
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  GetCommand,
  paginateQuery,
  paginateScan,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { claimBlocker, senderDomain, senderKey, type SenderAssignment, type SenderClaim, type SenderHolders, type SenderStore } from '../domain/channels';
import { Conflict } from '../domain/errors';

export const SENDERS_BY_APP = 'by-app';

/** Reads and writes a claim makes before it gives up on writers racing it. */
const CLAIM_ATTEMPTS = 5;

type Item = Record<string, unknown>;

const isClaim = (item: Item | undefined): item is Item => typeof item?.app_id === 'string';

function toAssignment(item: Item): SenderAssignment {
  return { app_id: item.app_id as string, sender: item.sender as string, kind: item.kind as SenderAssignment['kind'], assigned_at: item.assigned_at as string };
}

/** A write lost to a concurrent one (its condition, or a transaction conflict): read again. */
function lostRace(error: unknown): boolean {
  if (error instanceof ConditionalCheckFailedException) return true;
  if (!(error instanceof TransactionCanceledException)) return false;
  return (error.CancellationReasons ?? []).every((reason) => ['None', 'ConditionalCheckFailed', 'TransactionConflict'].includes(reason.Code ?? 'None'));
}

export class DynamoSenderStore implements SenderStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async claim(wanted: SenderAssignment): Promise<SenderClaim> {
    for (let attempt = 1; attempt <= CLAIM_ATTEMPTS; attempt++) {
      try {
        return wanted.kind === 'domain' ? await this.claimDomain(wanted) : await this.claimAddress(wanted);
      } catch (error) {
        if (!lostRace(error)) throw error;
      }
    }
    throw new Conflict(`${wanted.sender} changed while it was being assigned: try again`);
  }

  private async claimAddress(wanted: SenderAssignment): Promise<SenderClaim> {
    const domain = senderDomain(wanted.sender);
    const [own, domainItem] = await Promise.all([this.item(domain, wanted.sender), this.item(domain, domain)]);
    if (isClaim(own) && own.app_id === wanted.app_id) return { outcome: 'unchanged', assignment: toAssignment(own) };
    const blocker = claimBlocker([own, domainItem].filter(isClaim).map(toAssignment), wanted);
    if (blocker) return { outcome: 'taken', by: blocker };
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: this.tableName,
              Item: { domain, ...wanted },
              ConditionExpression: 'attribute_not_exists(#sender)',
              ExpressionAttributeNames: { '#sender': 'sender' },
            },
          },
          {
            Update: {
              TableName: this.tableName,
              Key: { domain, sender: domain },
              UpdateExpression: 'ADD #writes :one',
              ConditionExpression: 'attribute_not_exists(#app) OR #app = :app',
              ExpressionAttributeNames: { '#writes': 'writes', '#app': 'app_id' },
              ExpressionAttributeValues: { ':one': 1, ':app': wanted.app_id },
            },
          },
        ],
      }),
    );
    return { outcome: 'assigned', assignment: wanted };
  }

  private async claimDomain(wanted: SenderAssignment): Promise<SenderClaim> {
    const domain = wanted.sender;
    const items = await this.partition(domain);
    const domainItem = items.find((item) => item.sender === domain);
    if (isClaim(domainItem) && domainItem.app_id === wanted.app_id) return { outcome: 'unchanged', assignment: toAssignment(domainItem) };
    const blocker = claimBlocker(items.filter(isClaim).map(toAssignment), wanted);
    if (blocker) return { outcome: 'taken', by: blocker };
    // Nothing claimed at the domain since the read: no item then, or the same count of claims.
    const unchanged =
      domainItem === undefined
        ? { condition: 'attribute_not_exists(#sender)', names: { '#sender': 'sender' } as Record<string, string>, values: {} }
        : { condition: 'attribute_not_exists(#app) AND #writes = :seen', names: {}, values: { ':seen': domainItem.writes } };
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { domain, sender: domain },
        UpdateExpression: 'SET #app = :app, #kind = :kind, #at = :at ADD #writes :one',
        ConditionExpression: unchanged.condition,
        ExpressionAttributeNames: { '#app': 'app_id', '#kind': 'kind', '#at': 'assigned_at', '#writes': 'writes', ...unchanged.names },
        ExpressionAttributeValues: { ':app': wanted.app_id, ':kind': 'domain', ':at': wanted.assigned_at, ':one': 1, ...unchanged.values },
      }),
    );
    return { outcome: 'assigned', assignment: wanted };
  }

  async release(appId: string, sender: string): Promise<boolean> {
    const domain = senderDomain(sender);
    const condition = { ConditionExpression: '#app = :app', ExpressionAttributeValues: { ':app': appId } };
    try {
      // The domain's item stays without its claim: it keeps the count that domain claims are conditioned on.
      await this.db.send(
        sender === domain
          ? new UpdateCommand({
              TableName: this.tableName,
              Key: { domain, sender },
              UpdateExpression: 'REMOVE #app, #kind, #at',
              ExpressionAttributeNames: { '#app': 'app_id', '#kind': 'kind', '#at': 'assigned_at' },
              ...condition,
            })
          : new DeleteCommand({ TableName: this.tableName, Key: { domain, sender }, ExpressionAttributeNames: { '#app': 'app_id' }, ...condition }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async listByApp(appId: string): Promise<SenderAssignment[]> {
    const found: SenderAssignment[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.tableName,
        IndexName: SENDERS_BY_APP,
        KeyConditionExpression: '#app = :app',
        ExpressionAttributeNames: { '#app': 'app_id' },
        ExpressionAttributeValues: { ':app': appId },
      },
    );
    for await (const page of pages) found.push(...(page.Items ?? []).map(toAssignment));
    return found;
  }

  async list(): Promise<SenderAssignment[]> {
    const found: SenderAssignment[] = [];
    const pages = paginateScan(
      { client: this.db },
      { TableName: this.tableName, FilterExpression: 'attribute_exists(#app)', ExpressionAttributeNames: { '#app': 'app_id' } },
    );
    for await (const page of pages) found.push(...(page.Items ?? []).map(toAssignment));
    return found.sort((a, b) => a.sender.localeCompare(b.sender));
  }

  async holders(address: string): Promise<SenderHolders> {
    const key = senderKey(address);
    const domain = senderDomain(key);
    const [own, domainItem] = await Promise.all([this.item(domain, key), this.item(domain, domain)]);
    return { address: own?.app_id as string | undefined, domain: domainItem?.app_id as string | undefined };
  }

  private async item(domain: string, sender: string): Promise<Item | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { domain, sender }, ConsistentRead: true }));
    return out.Item;
  }

  private async partition(domain: string): Promise<Item[]> {
    const items: Item[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.tableName,
        KeyConditionExpression: '#domain = :domain',
        ExpressionAttributeNames: { '#domain': 'domain' },
        ExpressionAttributeValues: { ':domain': domain },
        ConsistentRead: true,
      },
    );
    for await (const page of pages) items.push(...(page.Items ?? []));
    return items;
  }
}
