import { appStore, funnelStore, rejectionLog } from '../../adapters/stores';
import { makeCountFunnelHandler } from './make-handler';

export const handler = makeCountFunnelHandler({ store: funnelStore(), apps: appStore(), rejections: rejectionLog(), now: () => new Date() });
