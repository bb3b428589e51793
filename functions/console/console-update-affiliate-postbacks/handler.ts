/**
 * POST /console/api/affiliates/{affiliate_id}/postbacks: an operator sets an affiliate's postback URL, turns
 * postbacks off, or makes a new signing secret, audited. A secret just made is in this answer only.
 */
import { postbackSending, tables } from '../../manifest/resources';
import { maxBodyBytesOf } from '../../manifest/body-limits';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoAuditLog } from '../../adapters/dynamo-audit-log';
import { DynamoPostbackSettings } from '../../adapters/dynamo-postback-store';
import { secretStoreFromEnv } from '../../adapters/secret-store';
import { changeAffiliatePostbacks } from '../../back-office/postbacks';
import { dynamo } from '../../adapters/clients/dynamo';
import { optionalEnv, requireEnv } from '../../runtime/config';
import { affiliateIdOf } from '../../domain/affiliates';
import { ValidationError } from '../../domain/errors';
import { postbackHostList } from '../../domain/postbacks';
import { consoleActor, consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { jsonBody, validBody } from '../../http/json-body';
import { json } from '../../http/response';
import { validUpdateAffiliatePostbacksBody, type UpdateAffiliatePostbacksBody } from './schema';

const affiliatesTable = requireEnv(tables.affiliates.envVar);
const office = {
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  secrets: secretStoreFromEnv(),
  audit: new DynamoAuditLog(dynamo, requireEnv(tables.auditLog.envVar)),
  postbacks: {
    settings: new DynamoPostbackSettings(dynamo, affiliatesTable),
    // The operator's development hosts, as the sender and `npm run admin` allow them.
    allowedHosts: postbackHostList(optionalEnv(postbackSending.allowedHostsEnvVar, '')),
  },
};

export const handler = consoleApi({ roles: ['admin', 'marketer'], mutates: true })
  .use(jsonBody({ maxBytes: maxBodyBytesOf('ConsoleUpdateAffiliatePostbacks') }))
  .use(validBody(validUpdateAffiliatePostbacksBody))
  .handler(async (event: ConsoleEvent) => {
    const body = event.body as unknown as UpdateAffiliatePostbacksBody;
    if (body.action === 'set' && body.postback_url === undefined)
      throw new ValidationError(['postback_url is required with action "set"'], 'request body is invalid');
    if (body.action !== 'set' && body.postback_url !== undefined)
      throw new ValidationError(['postback_url goes with action "set" only'], 'request body is invalid');
    const settings = await changeAffiliatePostbacks(office, event.console.appId, consoleActor(event), affiliateIdOf(event.pathParameters), body);
    return json(200, {
      postback_url_set: settings.postback_url !== null,
      ...(settings.signing_secret ? { signing_secret: settings.signing_secret } : {}),
    });
  });
