import { tables } from '../shared/manifest/resources';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoAuditLog } from '../shared/adapters/dynamo-audit-log';
import { DynamoChannelStore } from '../shared/adapters/dynamo-channel-store';
import { createChannel } from '../shared/back-office/channels';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { maxBodyBytesOf } from '../shared/manifest/body-limits';
import { consoleActor, consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { jsonBody, validBody } from '../shared/http/json-body';
import { json } from '../shared/http/response';
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
