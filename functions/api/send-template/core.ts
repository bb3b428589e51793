/**
 * send_template: one stored template to one player, rendered with the
 * request's data and sent through the send gate (functions/messaging/
 * send-template.ts, the path every campaign send takes). The message id is
 * derived from the request, so a retried call sends once.
 */
import { Conflict, Forbidden, NotFound } from '../../domain/errors';
import { messageUuidOf, type HeldAnswer } from '../../messaging/gated';
import type { TemplateSendOutcome, TemplateSendRequest } from '../../messaging/send-template';
import type { SendTemplateRequest } from './schema';

export interface SendTemplateDeps {
  /** functions/messaging/send-template.ts `templateSender`, wired with the gate and the webhook sender. */
  send: (request: TemplateSendRequest) => Promise<TemplateSendOutcome>;
  now: () => Date;
}

export type SendTemplateResult =
  | { status: 'sent'; messageId: string; kind: 'email' | 'push' | 'webhook'; recorded: boolean }
  | { status: 'held'; held: HeldAnswer }
  /** The template does not render with this data (422); `urm_message_failed` is on the timeline. */
  | { status: 'unrenderable'; detail: string }
  /** The webhook's receiver did not take it (502); `urm_message_failed` is on the timeline. */
  | { status: 'undelivered'; detail: string };

/** The message id: the integrator's key, else the request on its UTC day. A UUID, as a push's notification id must be. */
export function sendTemplateMessageId(request: SendTemplateRequest, now: Date): string {
  return request.idempotency_key !== undefined
    ? messageUuidOf('send_template', request.app_id, request.idempotency_key)
    : messageUuidOf('send_template', request, now.toISOString().slice(0, 10));
}

export function sendTemplate(deps: SendTemplateDeps) {
  return async (request: SendTemplateRequest, callerAppId: string): Promise<SendTemplateResult> => {
    if (request.app_id !== callerAppId) throw new Forbidden();
    const messageId = sendTemplateMessageId(request, deps.now());
    const outcome = await deps.send({
      appId: request.app_id,
      profileId: request.profile_id,
      templateId: request.template_id,
      purpose: request.purpose,
      ...(request.topic !== undefined ? { topic: request.topic } : {}),
      messageId,
      ...(request.data !== undefined ? { data: request.data } : {}),
    });
    switch (outcome.status) {
      case 'sent': {
        const kind = outcome.email ? 'email' : outcome.push ? 'push' : 'webhook';
        return { status: 'sent', kind, messageId: outcome.email?.message_id ?? messageId, recorded: outcome.recorded };
      }
      case 'suppressed':
        if (outcome.reason === 'no_player') throw new NotFound('profile not found');
        return { status: 'held', held: { suppressed: outcome.reason, detail: outcome.detail } };
      case 'deferred':
        return { status: 'held', held: { deferred_until: outcome.deferred_until, detail: outcome.detail } };
      case 'duplicate':
        throw new Conflict('this message was already sent (the same idempotency_key, or the same request today)');
      case 'failed':
        switch (outcome.reason) {
          case 'no_template':
            throw new NotFound('template not found');
          case 'no_channel':
            throw new Conflict('the application has no enabled email channel: the operator adds or enables one');
          case 'render':
            return { status: 'unrenderable', detail: outcome.detail };
          case 'webhook':
            return { status: 'undelivered', detail: outcome.detail };
        }
    }
  };
}
