import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, paginateScan, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { App, AppStore } from '../domain/apps';
import { NotFound } from '../domain/errors';

export class DynamoAppStore implements AppStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(app: App): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: app, ConditionExpression: 'attribute_not_exists(app_id)' }));
  }

  async get(appId: string): Promise<App | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { app_id: appId } }));
    return out.Item as App | undefined;
  }

  async list(): Promise<App[]> {
    const apps: App[] = [];
    for await (const page of paginateScan({ client: this.db }, { TableName: this.tableName })) apps.push(...((page.Items ?? []) as App[]));
    return apps.sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  async update(appId: string, changes: Parameters<AppStore['update']>[1]): Promise<App> {
    const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
    if (entries.length === 0) {
      const app = await this.get(appId);
      if (!app) throw new NotFound(`no application ${appId}`);
      return app;
    }
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { app_id: appId },
          ConditionExpression: 'attribute_exists(app_id)',
          UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
          ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes as App;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) throw new NotFound(`no application ${appId}`);
      throw error;
    }
  }
}
