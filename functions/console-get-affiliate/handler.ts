import { tables } from '../shared/manifest/resources';
import { DynamoAffiliateStore } from '../shared/adapters/dynamo-affiliate-store';
import { DynamoLinkStore } from '../shared/adapters/dynamo-link-store';
import { DynamoPlanStore } from '../shared/adapters/dynamo-plan-store';
import { DynamoPostbackSettings } from '../shared/adapters/dynamo-postback-store';
import { affiliateDetail } from '../shared/back-office/affiliates';
import { dynamo } from '../shared/clients';
import { requireEnv } from '../shared/config';
import { affiliateIdOf } from '../shared/domain/affiliates';
import { consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { requestOrigin } from '../shared/http/request-origin';
import { json } from '../shared/http/response';

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
