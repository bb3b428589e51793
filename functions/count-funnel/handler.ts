import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { tables } from '../shared/manifest/resources';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoFunnelStore } from '../shared/adapters/dynamo-funnel-store';
import { DynamoRejectionLog } from '../shared/adapters/dynamo-rejection-log';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { moneySettingsOf, type MoneySettings } from '../shared/domain/money-settings';
import { LookupCache, lookupCacheDefaults } from '../shared/http/lookup-cache';
import { logger } from '../shared/logger';
import { consumeBatch } from '../shared/stream/consume';
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
