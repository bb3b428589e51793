import { PostbackHttp } from '../../adapters/postback-http';
import { secretStoreFromEnv } from '../../adapters/secret-store';
import { appStore, postbackOutbox, postbackSettings } from '../../adapters/stores';
import { postbackHostList } from '../../domain/postbacks';
import { postbackSending } from '../../manifest/resources';
import { optionalEnv } from '../../runtime/config';
import { makeSendPostbacksHandler } from './make-handler';

export const handler = makeSendPostbacksHandler({
  apps: appStore(),
  outbox: postbackOutbox(),
  settings: postbackSettings(),
  secrets: secretStoreFromEnv(),
  transport: new PostbackHttp({ allowedHosts: postbackHostList(optionalEnv(postbackSending.allowedHostsEnvVar, '')) }),
  now: () => new Date(),
});
