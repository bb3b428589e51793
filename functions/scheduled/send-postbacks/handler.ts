import { PostbackHttp } from '../../adapters/postback-http';
import { secretStoreFromEnv } from '../../adapters/secret-store';
import { affiliateStore, appStore, planStore, postbackOutbox, postbackSettings } from '../../adapters/stores';
import { payoutPlan } from '../../back-office/postbacks';
import { postbackHostList } from '../../domain/postbacks';
import { postbackSending } from '../../manifest/resources';
import { optionalEnv } from '../../runtime/config';
import { makeSendPostbacksHandler } from './make-handler';

export const handler = makeSendPostbacksHandler({
  apps: appStore(),
  outbox: postbackOutbox(),
  settings: postbackSettings(),
  secrets: secretStoreFromEnv(),
  payoutPlan: payoutPlan({ affiliates: affiliateStore(), plans: planStore() }),
  transport: new PostbackHttp({ allowedHosts: postbackHostList(optionalEnv(postbackSending.allowedHostsEnvVar, '')) }),
  now: () => new Date(),
});
