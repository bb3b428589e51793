import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoAuditLog } from '../../adapters/dynamo-audit-log';
import { secretStoreFromEnv } from '../../adapters/secret-store';
import { generateVapidKeys } from '../../back-office/web-push';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { maxBodyBytesOf } from '../../manifest/body-limits';
import { consoleActor, consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { jsonBody, validBody } from '../../http/json-body';
import { json } from '../../http/response';
import { validGenerateVapidBody, type GenerateVapidBody } from './schema';

const office = {
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  secrets: secretStoreFromEnv(),
  audit: new DynamoAuditLog(dynamo, requireEnv(tables.auditLog.envVar)),
};

/** 409 when the application has keys and `rotate` is not true; the private key is never in the answer. */
export const handler = consoleApi({ roles: ['admin'], mutates: true })
  .use(jsonBody({ maxBytes: maxBodyBytesOf('ConsoleGenerateVapid') }))
  .use(validBody(validGenerateVapidBody))
  .handler(async (event: ConsoleEvent) => {
    const body = (event.body ?? {}) as unknown as GenerateVapidBody;
    const keys = await generateVapidKeys(office, event.console.appId, consoleActor(event), { subject: body.subject, rotate: body.rotate });
    return json(200, { vapid_public_key: keys.publicKey, vapid_subject: keys.subject });
  });
