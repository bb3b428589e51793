import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, paginateQuery, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Channel, ChannelStore } from '../domain/channels';

/** Channels keyed by app_id and channel_id: a channel id is only ever looked up within its application. */
export class DynamoChannelStore implements ChannelStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(channel: Channel): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: channel, ConditionExpression: 'attribute_not_exists(channel_id)' }));
  }

  async get(appId: string, channelId: string): Promise<Channel | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { app_id: appId, channel_id: channelId }, ConsistentRead: true }));
    return out.Item as Channel | undefined;
  }

  async listByApp(appId: string): Promise<Channel[]> {
    const channels: Channel[] = [];
    const pages = paginateQuery(
      { client: this.db },
      { TableName: this.tableName, KeyConditionExpression: 'app_id = :app', ExpressionAttributeValues: { ':app': appId } },
    );
    for await (const page of pages) channels.push(...((page.Items ?? []) as Channel[]));
    return channels.sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  async setEnabled(appId: string, channelId: string, enabled: boolean, at: Date): Promise<Channel | undefined> {
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { app_id: appId, channel_id: channelId },
          ConditionExpression: 'attribute_exists(channel_id)',
          UpdateExpression: 'SET enabled = :enabled, updated_at = :at',
          ExpressionAttributeValues: { ':enabled': enabled, ':at': at.toISOString() },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes as Channel;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  async setFromDomain(appId: string, channelId: string, fromEmail: string, fromDomain: string | undefined, at: Date): Promise<Channel | undefined> {
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { app_id: appId, channel_id: channelId },
          // The domain was checked against this address: it must still be the channel's.
          ConditionExpression: 'from_email = :email',
          UpdateExpression: fromDomain === undefined ? 'SET updated_at = :at REMOVE from_domain' : 'SET from_domain = :domain, updated_at = :at',
          ExpressionAttributeValues: { ':email': fromEmail, ':at': at.toISOString(), ...(fromDomain === undefined ? {} : { ':domain': fromDomain }) },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes as Channel;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }
}
