import { appStore, funnelStore, postbackSettings, rejectionLog } from '../../adapters/stores';
import { makeCountFunnelHandler } from './make-handler';

export const handler = makeCountFunnelHandler({
  store: funnelStore(),
  apps: appStore(),
  postbackSettings: postbackSettings(),
  rejections: rejectionLog(),
  now: () => new Date(),
});
