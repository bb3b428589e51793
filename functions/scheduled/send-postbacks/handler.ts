import type { Context, ScheduledEvent } from 'aws-lambda';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { postbackSending, tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoPostbackOutbox, DynamoPostbackSettings } from '../../adapters/dynamo-postback-store';
import { PostbackHttp } from '../../adapters/postback-http';
import { secretStoreFromEnv } from '../../adapters/secret-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { optionalEnv, requireEnv } from '../../runtime/config';
import { moneySettingsOf } from '../../domain/money-settings';
import { postbackHostList } from '../../domain/postbacks';
import { LookupCache, lookupCacheDefaults } from '../../http/lookup-cache';
import { logger } from '../../runtime/logger';
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
