import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoAuditLog } from '../../adapters/dynamo-audit-log';
import { DynamoChannelStore } from '../../adapters/dynamo-channel-store';
import { createChannel } from '../../back-office/channels';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { maxBodyBytesOf } from '../../manifest/body-limits';
import { consoleActor, consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { jsonBody, validBody } from '../../http/json-body';
import { json } from '../../http/response';
import { validCreateChannelBody, type CreateChannelBody } from './schema';

const office = {
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  channels: new DynamoChannelStore(dynamo, requireEnv(tables.channels.envVar)),
  audit: new DynamoAuditLog(dynamo, requireEnv(tables.auditLog.envVar)),
};

export const handler = consoleApi({ roles: ['admin'], mutates: true })
  .use(jsonBody({ maxBytes: maxBodyBytesOf('ConsoleCreateChannel') }))
  .use(validBody(validCreateChannelBody))
  .handler(async (event: ConsoleEvent) => {
    const body = event.body as unknown as CreateChannelBody;
    const channel = await createChannel(office, consoleActor(event), {
      appId: event.console.appId,
      name: body.name,
      fromEmail: body.from_email,
      fromName: body.from_name,
      ...(body.from_domain === undefined ? {} : { fromDomain: body.from_domain }),
    });
    return json(201, { channel });
  });
