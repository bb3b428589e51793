import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoAuditLog } from '../../adapters/dynamo-audit-log';
import { DynamoChannelStore } from '../../adapters/dynamo-channel-store';
import { setChannelDomain, setChannelEnabled } from '../../back-office/channels';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import type { Channel } from '../../domain/channels';
import { maxBodyBytesOf } from '../../manifest/body-limits';
import { consoleActor, consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { jsonBody, validBody } from '../../http/json-body';
import { json } from '../../http/response';
import { validUpdateChannelBody, type UpdateChannelBody } from './schema';

const office = {
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  channels: new DynamoChannelStore(dynamo, requireEnv(tables.channels.envVar)),
  audit: new DynamoAuditLog(dynamo, requireEnv(tables.auditLog.envVar)),
};

/** The command line's `channel update` and `channel enable/disable`; a channel of another application is 404. */
export const handler = consoleApi({ roles: ['admin'], mutates: true })
  .use(jsonBody({ maxBytes: maxBodyBytesOf('ConsoleUpdateChannel') }))
  .use(validBody(validUpdateChannelBody))
  .handler(async (event: ConsoleEvent) => {
    const body = event.body as unknown as UpdateChannelBody;
    const { appId } = event.console;
    const channelId = event.pathParameters?.channel_id ?? '';
    let channel: Channel | undefined;
    if (body.from_domain !== undefined) channel = await setChannelDomain(office, appId, consoleActor(event), channelId, body.from_domain ?? undefined);
    if (body.enabled !== undefined) channel = await setChannelEnabled(office, appId, consoleActor(event), channelId, body.enabled);
    return json(200, { channel });
  });
