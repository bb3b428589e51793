import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoChannelStore } from '../../adapters/dynamo-channel-store';
import { listChannels } from '../../back-office/channels';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { json } from '../../http/response';

const office = {
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  channels: new DynamoChannelStore(dynamo, requireEnv(tables.channels.envVar)),
};

/** Marketers read them too: they pick the channel a player's email is sent through. */
export const handler = consoleApi({ roles: ['admin', 'marketer'], mutates: false }).handler(async (event: ConsoleEvent) =>
  json(200, { channels: await listChannels(office, event.console.appId) }),
);
