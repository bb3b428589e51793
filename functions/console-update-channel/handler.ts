import { tables } from '../shared/manifest/resources';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoAuditLog } from '../shared/adapters/dynamo-audit-log';
import { DynamoChannelStore } from '../shared/adapters/dynamo-channel-store';
import { setChannelDomain, setChannelEnabled } from '../shared/back-office/channels';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import type { Channel } from '../shared/domain/channels';
import { maxBodyBytesOf } from '../shared/manifest/body-limits';
import { consoleActor, consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { jsonBody, validBody } from '../shared/http/json-body';
import { json } from '../shared/http/response';
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
