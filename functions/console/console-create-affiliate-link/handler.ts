import { tables } from '../../manifest/resources';
import { maxBodyBytesOf } from '../../manifest/body-limits';
import { DynamoAffiliateStore } from '../../adapters/dynamo-affiliate-store';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoAuditLog } from '../../adapters/dynamo-audit-log';
import { DynamoLinkStore } from '../../adapters/dynamo-link-store';
import { clickAddress, createLinkForAffiliate } from '../../back-office/affiliate-links';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { affiliateIdOf } from '../../domain/affiliates';
import { consoleActor, consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { jsonBody, validBody } from '../../http/json-body';
import { requestOrigin } from '../../http/request-origin';
import { json } from '../../http/response';
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
