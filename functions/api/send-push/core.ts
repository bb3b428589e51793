/**
 * send_push: one notification to every web push token of a profile of the
 * caller's application (functions/messaging/push.ts, shared with the
 * back office), under the caller's notification id when it gives one.
 */
import { Conflict, Forbidden } from '../../domain/errors';
import { gatedSend, messageUuidOf, type GatedPorts, type HeldAnswer } from '../../messaging/gated';
import { pushToProfile, type PushPorts, type PushSent, type SendBudget } from '../../messaging/push';
import type { SendPushRequest } from './schema';

export type SendPushDeps = PushPorts & {
  /** The send gate's ports: a request with a `purpose` goes through it (docs/api.md, "The send gate"). */
  gate?: Omit<GatedPorts, 'email' | 'push' | 'profiles' | 'writer' | 'newId'>;
};

/** What the gate said instead of sending. */
export type PushHeld = { held: HeldAnswer };
export type { PushSent, SendBudget } from '../../messaging/push';

export function sendPush(deps: SendPushDeps) {
  const push = pushToProfile(deps);
  const gated = deps.gate ? gatedSend({ ...deps.gate, profiles: deps.profiles, writer: deps.writer, newId: deps.newId, push: deps }) : undefined;
  return async (request: SendPushRequest, callerAppId: string, budget?: SendBudget): Promise<PushSent | PushHeld> => {
    if (request.app_id !== callerAppId) throw new Forbidden();
    // A caller's own id makes a retry safe: deliveries are claimed under it.
    const { app_id: appId, notification_id: notificationId, purpose, topic, ...message } = request;
    if (purpose !== undefined) {
      if (!gated) throw new Error('send_push is not wired with the send gate');
      const { profile_id: profileId, ...push } = message;
      // Without the caller's id, the same request on the same UTC day is the same notification.
      const messageId = notificationId ?? messageUuidOf('send_push', request, deps.now().toISOString().slice(0, 10));
      const outcome = await gated(
        { appId, profileId, purpose, ...(topic !== undefined ? { topic } : {}), messageId, message: { channel: 'push', push } },
        budget ? { budget } : {},
      );
      if (outcome.status === 'duplicate') throw new Conflict('this notification was already sent');
      if (outcome.status === 'suppressed') return { held: { suppressed: outcome.reason, detail: outcome.detail } };
      if (outcome.status === 'deferred') return { held: { deferred_until: outcome.deferred_until, detail: outcome.detail } };
      const sent = outcome.push ?? { notification_id: messageId, sent: 0, failed: 0, removed: 0, unsent: 0, skipped: 0, reasons: {} };
      return { ...sent, ...(outcome.recorded ? {} : { recordError: new Error('not recorded') }) };
    }
    // The event written is the back office's to keep; send_push answers the counts.
    const { event: _event, ...sent } = await push(appId, message, { notificationId: notificationId ?? deps.newId(), budget });
    return sent;
  };
}
