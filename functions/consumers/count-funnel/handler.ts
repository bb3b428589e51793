import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoFunnelStore } from '../../adapters/dynamo-funnel-store';
import { DynamoRejectionLog } from '../../adapters/dynamo-rejection-log';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { moneySettingsOf, type MoneySettings } from '../../domain/money-settings';
import { LookupCache, lookupCacheDefaults } from '../../http/lookup-cache';
import { logger } from '../../runtime/logger';
import { consumeBatch } from '../../stream/consume';
import { countFunnel } from './core';

const apps = new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar));
// Settings changes reach the consumer within the cache's 30 seconds, like key revocations reach the API.
const settingsCache = new LookupCache<MoneySettings>(lookupCacheDefaults);
const rejections = new DynamoRejectionLog(dynamo, requireEnv(tables.rejections.envVar));
const count = countFunnel({
  store: new DynamoFunnelStore(dynamo, requireEnv(tables.funnel.envVar)),
  settings: (appId) =>
    settingsCache.get(appId, async (id) => {
      const app = await apps.get(id);
      return app && moneySettingsOf(app);
    }),
  rejections,
  now: () => new Date(),
});

export const handler = middy<KinesisStreamEvent, KinesisStreamBatchResponse>()
  .use(injectLambdaContext(logger))
  .handler(
    consumeBatch(rejections, async (items) => {
      const counts = await count(items);
      logger.info('Funnel counted', { records: items.length, ...counts });
      // A failure throws: the batch comes again (bisected), and what was counted is skipped.
      return [];
    }),
  );
