import { tables } from '../shared/manifest/resources';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoChannelStore } from '../shared/adapters/dynamo-channel-store';
import { listChannels } from '../shared/back-office/channels';
import { dynamo } from '../shared/clients';
import { requireEnv } from '../shared/config';
import { consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { json } from '../shared/http/response';

const office = {
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  channels: new DynamoChannelStore(dynamo, requireEnv(tables.channels.envVar)),
};

/** Marketers read them too: they pick the channel a player's email is sent through. */
export const handler = consoleApi({ roles: ['admin', 'marketer'], mutates: false }).handler(async (event: ConsoleEvent) =>
  json(200, { channels: await listChannels(office, event.console.appId) }),
);
