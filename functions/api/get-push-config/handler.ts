import { appOrigins, appStore, keyResolver } from '../../adapters/stores';
import { makeGetPushConfigHandler } from './make-handler';

export const handler = makeGetPushConfigHandler({ keys: keyResolver(), origins: appOrigins(), apps: appStore() });
