/**
 * send_push: one notification to every web push token of a profile of the
 * caller's application (functions/messaging/push.ts, shared with the
 * back office), under the caller's notification id when it gives one.
 */
import { Forbidden } from '../../domain/errors';
import { pushToProfile, type PushPorts, type PushSent, type SendBudget } from '../../messaging/push';
import type { SendPushRequest } from './schema';

export type SendPushDeps = PushPorts;
export type { PushSent, SendBudget } from '../../messaging/push';

export function sendPush(deps: SendPushDeps) {
  const push = pushToProfile(deps);
  return async (request: SendPushRequest, callerAppId: string, budget?: SendBudget): Promise<PushSent> => {
    if (request.app_id !== callerAppId) throw new Forbidden();
    // A caller's own id makes a retry safe: deliveries are claimed under it.
    const { app_id: appId, notification_id: notificationId, ...message } = request;
    // The event written is the back office's to keep; send_push answers the counts.
    const { event: _event, ...sent } = await push(appId, message, { notificationId: notificationId ?? deps.newId(), budget });
    return sent;
  };
}
