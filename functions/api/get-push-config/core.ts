/** The public half of the application's VAPID key pair; the private half never leaves the back end. */
import type { AppStore } from '../../domain/apps';
import { Forbidden, NotFound } from '../../domain/errors';
import { PUSH_NOT_CONFIGURED } from '../../domain/push';
import type { PushConfig } from './schema';

export function getPushConfig(apps: Pick<AppStore, 'get'>) {
  return async (callerAppId: string, appId: string): Promise<PushConfig> => {
    if (appId !== callerAppId) throw new Forbidden();
    const app = await apps.get(appId);
    if (!app?.vapid_public_key) throw new NotFound(PUSH_NOT_CONFIGURED);
    return { vapid_public_key: app.vapid_public_key };
  };
}
