import type { Context, ScheduledEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { postbackSending, tables } from '../shared/manifest/resources';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoPostbackOutbox, DynamoPostbackSettings } from '../shared/adapters/dynamo-postback-store';
import { PostbackHttp } from '../shared/adapters/postback-http';
import { secretStoreFromEnv } from '../shared/adapters/secret-store';
import { dynamo } from '../shared/clients/dynamo';
import { optionalEnv, requireEnv } from '../shared/config';
import { moneySettingsOf } from '../shared/domain/money-settings';
import { postbackHostList } from '../shared/domain/postbacks';
import { LookupCache, lookupCacheDefaults } from '../shared/http/lookup-cache';
import { logger } from '../shared/logger';
import { sendPostbacks, type PostbackRunCounts } from './core';

const apps = new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar));
const currencies = new LookupCache<string>(lookupCacheDefaults);
const outbox = new DynamoPostbackOutbox(dynamo, requireEnv(tables.funnel.envVar));
const transport = new PostbackHttp({ allowedHosts: postbackHostList(optionalEnv(postbackSending.allowedHostsEnvVar, '')) });
const settings = new DynamoPostbackSettings(dynamo, requireEnv(tables.affiliates.envVar));
const secrets = secretStoreFromEnv();

export const handler = middy<ScheduledEvent, PostbackRunCounts>()
  .use(injectLambdaContext(logger))
  .handler(async (_event: ScheduledEvent, context: Context) => {
    const counts = await sendPostbacks({
      outbox,
      log: outbox,
      settings,
      secrets,
      currency: (appId) =>
        currencies.get(appId, async (id) => {
          const app = await apps.get(id);
          return app && moneySettingsOf(app).currency;
        }),
      transport,
      now: () => new Date(),
      remainingMs: () => context.getRemainingTimeInMillis(),
    })();
    if (counts.due > 0) logger.info('Postbacks sent', { ...counts });
    return counts;
  });
