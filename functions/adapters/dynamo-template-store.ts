/**
 * TemplateStore on DynamoDB: one item per template in the application's
 * partition of the campaigns table (`app#<app_id>`, `tpl#<template_id>`),
 * the template as JSON text (a map would refuse a variable named like a
 * reserved word and costs more to write), and its version for conditional writes.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { TEMPLATES_PER_APP, type StoredTemplate, type TemplateStore } from '../domain/template-store';
import type { MessageTemplate } from '../domain/templates';

const pk = (appId: string) => `app#${appId}`;
const PREFIX = 'tpl#';

function storedOf(item: Record<string, NativeAttributeValue>): StoredTemplate {
  return {
    app_id: item.app_id as string,
    template: JSON.parse(item.template as string) as MessageTemplate,
    version: Number(item.version),
    archived: item.archived === true,
    created_at: item.created_at as string,
    updated_at: item.updated_at as string,
    ...(typeof item.updated_by === 'string' ? { updated_by: item.updated_by } : {}),
  };
}

function itemOf(stored: StoredTemplate): Record<string, NativeAttributeValue> {
  return {
    pk: pk(stored.app_id),
    sk: `${PREFIX}${stored.template.id}`,
    app_id: stored.app_id,
    template: JSON.stringify(stored.template),
    version: stored.version,
    archived: stored.archived,
    created_at: stored.created_at,
    updated_at: stored.updated_at,
    ...(stored.updated_by !== undefined ? { updated_by: stored.updated_by } : {}),
  };
}

export class DynamoTemplateStore implements TemplateStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async list(appId: string, options: { archived?: boolean } = {}): Promise<StoredTemplate[]> {
    const found: StoredTemplate[] = [];
    let start: Record<string, NativeAttributeValue> | undefined;
    // Bounded by TEMPLATES_PER_APP (a template is at most 64 KiB as JSON: a few pages at most).
    do {
      const out = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk(appId), ':prefix': PREFIX },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      found.push(...(out.Items ?? []).map(storedOf));
      start = out.LastEvaluatedKey;
    } while (start && found.length < TEMPLATES_PER_APP);
    return found.filter((stored) => options.archived || !stored.archived).sort((a, b) => b.updated_at.localeCompare(a.updated_at));
  }

  async get(appId: string, templateId: string): Promise<StoredTemplate | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: pk(appId), sk: `${PREFIX}${templateId}` }, ConsistentRead: true }));
    return out.Item ? storedOf(out.Item) : undefined;
  }

  async count(appId: string): Promise<number> {
    let count = 0;
    let start: Record<string, NativeAttributeValue> | undefined;
    do {
      const out = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk(appId), ':prefix': PREFIX },
          Select: 'COUNT',
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      count += out.Count ?? 0;
      start = out.LastEvaluatedKey;
    } while (start);
    return count;
  }

  create(stored: StoredTemplate): Promise<boolean> {
    return this.conditionalPut(itemOf(stored), 'attribute_not_exists(pk)');
  }

  put(stored: StoredTemplate, expectedVersion: number): Promise<boolean> {
    return this.conditionalPut(itemOf(stored), 'version = :expected', { ':expected': expectedVersion });
  }

  private async conditionalPut(item: Record<string, NativeAttributeValue>, condition: string, values?: Record<string, NativeAttributeValue>): Promise<boolean> {
    try {
      await this.db.send(new PutCommand({ TableName: this.tableName, Item: item, ConditionExpression: condition, ExpressionAttributeValues: values }));
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}
