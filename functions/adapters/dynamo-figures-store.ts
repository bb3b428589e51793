/**
 * The `figures` table, read (functions/domain/figures.ts):
 *
 *   app#<app_id>  d#<day>  registrations (ADD by the profile consumer)
 *                 total    players
 *
 * `total` sorts after every `d#` day, so one Query from the first day reads both.
 */
import { GetCommand, paginateQuery, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { figuresPk, registrationDaySk, totalSk, type PlayerCountReader, type PlayerCounts } from '../domain/figures';

export class DynamoFiguresStore implements PlayerCountReader {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async players(appId: string): Promise<number> {
    const found = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: figuresPk(appId), sk: totalSk } }));
    return Math.max(0, Number(found.Item?.players ?? 0));
  }

  async playerCounts(appId: string, from: string): Promise<PlayerCounts> {
    const counts: PlayerCounts = { players: 0, registrations: {} };
    // Registration days are days profiles were received: none after today, so the range holds the asked days and the total.
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :total',
        ExpressionAttributeValues: { ':pk': figuresPk(appId), ':from': registrationDaySk(from), ':total': totalSk },
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) {
        if (item.sk === totalSk) counts.players = Number(item.players ?? 0);
        else counts.registrations[String(item.sk).slice(2)] = Number(item.registrations ?? 0);
      }
    }
    return counts;
  }
}
