import { tables } from '../../manifest/resources';
import { DynamoAffiliateStore } from '../../adapters/dynamo-affiliate-store';
import { DynamoLinkStore } from '../../adapters/dynamo-link-store';
import { DynamoPlanStore } from '../../adapters/dynamo-plan-store';
import { DynamoPostbackSettings } from '../../adapters/dynamo-postback-store';
import { affiliateDetail } from '../../back-office/affiliates';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { affiliateIdOf } from '../../domain/affiliates';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { requestOrigin } from '../../http/request-origin';
import { json } from '../../http/response';

const affiliatesTable = requireEnv(tables.affiliates.envVar);
const read = affiliateDetail({
  affiliates: new DynamoAffiliateStore(dynamo, affiliatesTable),
  plans: new DynamoPlanStore(dynamo, affiliatesTable),
  links: new DynamoLinkStore(dynamo, requireEnv(tables.links.envVar)),
  postbacks: { settings: new DynamoPostbackSettings(dynamo, affiliatesTable) },
});

export const handler = consoleApi({ roles: ['admin', 'marketer', 'viewer'], mutates: false }).handler(async (event: ConsoleEvent) =>
  // Click addresses are on the API's own origin, which serves /t/{link_id} as it serves this call.
  json(200, { affiliate: await read(event.console.appId, affiliateIdOf(event.pathParameters), requestOrigin(event)) }),
);
