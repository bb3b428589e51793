import { tables } from '../shared/manifest/resources';
import { maxBodyBytesOf } from '../shared/manifest/body-limits';
import { DynamoAffiliateStore } from '../shared/adapters/dynamo-affiliate-store';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoAuditLog } from '../shared/adapters/dynamo-audit-log';
import { DynamoLinkStore } from '../shared/adapters/dynamo-link-store';
import { clickAddress, createLinkForAffiliate } from '../shared/back-office/affiliate-links';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { affiliateIdOf } from '../shared/domain/affiliates';
import { consoleActor, consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { jsonBody, validBody } from '../shared/http/json-body';
import { requestOrigin } from '../shared/http/request-origin';
import { json } from '../shared/http/response';
import { validCreateAffiliateLinkBody, type CreateAffiliateLinkBody } from './schema';

const create = createLinkForAffiliate({
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  affiliates: new DynamoAffiliateStore(dynamo, requireEnv(tables.affiliates.envVar)),
  links: new DynamoLinkStore(dynamo, requireEnv(tables.links.envVar)),
  audit: new DynamoAuditLog(dynamo, requireEnv(tables.auditLog.envVar)),
});

export const handler = consoleApi({ roles: ['admin', 'marketer'], mutates: true })
  .use(jsonBody({ maxBytes: maxBodyBytesOf('ConsoleCreateAffiliateLink') }))
  .use(validBody(validCreateAffiliateLinkBody))
  .handler(async (event: ConsoleEvent) => {
    const link = await create(event.console.appId, consoleActor(event), affiliateIdOf(event.pathParameters), event.body as unknown as CreateAffiliateLinkBody);
    // The click address on the API's own origin, as GET /console/api/affiliates/{affiliate_id} gives it.
    return json(201, {
      link: {
        link_id: link.link_id,
        name: link.name,
        landing_url: link.landing_url,
        created_at: link.created_at,
        click_url: clickAddress(requestOrigin(event), link.link_id),
      },
    });
  });
