import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoPostbackOutbox, DynamoPostbackSettings } from '../../adapters/dynamo-postback-store';
import { postbackDeliveries, postbackUrlOf } from '../../back-office/postbacks';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { affiliateIdOf } from '../../domain/affiliates';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { validQuery } from '../../http/json-body';
import { json } from '../../http/response';
import { validAffiliatePostbacksQuery, type AffiliatePostbacksQuery } from './schema';

const office = {
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  postbacks: {
    settings: new DynamoPostbackSettings(dynamo, requireEnv(tables.affiliates.envVar)),
    log: new DynamoPostbackOutbox(dynamo, requireEnv(tables.funnel.envVar)),
  },
};

/** Whether postbacks are on (never the URL: its template and tokens are the affiliate's) and the delivery log, newest attempt first. */
export const handler = consoleApi({ roles: ['admin', 'marketer', 'viewer'], mutates: false })
  .use(validQuery(validAffiliatePostbacksQuery))
  .handler(async (event: ConsoleEvent) => {
    const { appId } = event.console;
    const affiliateId = affiliateIdOf(event.pathParameters);
    const query = event.queryStringParameters as AffiliatePostbacksQuery;
    const url = await postbackUrlOf(office, appId, affiliateId);
    const deliveries = await postbackDeliveries(office, appId, affiliateId, query.limit ? Number(query.limit) : undefined);
    return json(200, { postback_url_set: url !== null, postback_host: url === null ? null : hostOf(url), deliveries });
  });

function hostOf(template: string): string | null {
  try {
    return new URL(template).host;
  } catch {
    return null;
  }
}
