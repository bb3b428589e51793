/** Web push: what the browser SDK reads, and sending a notification. */
import { pushConfigSchema } from '../../../functions/api/get-push-config/schema';
import { sendPushResponseSchema } from '../../../functions/api/send-push/schema';
import { PUSH_NOT_CONFIGURED } from '../../../functions/domain/push';
import { messageBodySchema } from '../../../functions/http/error-bodies';
import { placeholders as p } from '../placeholders';
import { appQuery, notFound, refusal, v } from './common';
import type { OperationDoc } from './doc-types';

const invalidPush = { app_id: p.appId, profile_id: p.profileId, title: '', body: 'Your bonus is waiting', urgency: 'urgent' };

export const pushDocs: Record<string, OperationDoc> = {
  GetPushConfig: {
    tag: 'Web push',
    summary: 'The VAPID public key',
    description: "What the browser SDK needs to subscribe: the application's VAPID public key.",
    scopes: ['browser'],
    query: { validate: v.pushConfigQuery, ...appQuery },
    responses: {
      200: { description: 'The key.', schema: pushConfigSchema },
      404: {
        description: 'The application has no VAPID keys.',
        schema: messageBodySchema,
        illustrations: { '404 push not configured': { summary: 'An application without VAPID keys', value: notFound(PUSH_NOT_CONFIGURED) } },
      },
    },
    examples: {
      '200 VAPID key': {
        summary: "The application's key",
        query: { app_id: p.appId },
        answer: { vapid_public_key: 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U' },
      },
      '400 empty app_id': {
        summary: 'An empty `app_id`',
        query: { app_id: '' },
        answer: refusal(v.pushConfigQuery, { app_id: '' }),
      },
    },
  },
  SendPush: {
    tag: 'Web push',
    summary: 'Send a web push notification',
    description:
      'Sends the notification to every push subscription of the profile (none when it has `urm_receives_notifications: ' +
      'false`), removes subscriptions the push service no longer knows, and records an `urm_push_sent` event.',
    scopes: ['comms'],
    body: { validate: v.sendPush, description: 'The notification.' },
    responses: {
      200: { description: 'What became of each subscription.', schema: sendPushResponseSchema },
      404: { description: 'No such profile, or the application has no VAPID keys.', schema: messageBodySchema },
    },
    examples: {
      '200 sent': {
        summary: 'A notification with a link',
        body: {
          app_id: p.appId,
          profile_id: p.profileId,
          title: 'Free spins',
          body: '10 free spins are waiting',
          url: 'https://www.casino.example/spins',
          ttl: 3600,
          urgency: 'high',
        },
        answer: { notification_id: '9b2f6c1e-4d3a-4f5b-8e7c-1a2b3c4d5e6f', sent: 1, failed: 0, removed: 0, unsent: 0, skipped: 0 },
      },
      '404 unknown profile': {
        summary: 'A profile that does not exist',
        body: { app_id: p.appId, profile_id: p.unknownProfileId, title: 'Free spins', body: '10 free spins are waiting' },
        answer: notFound('profile not found'),
      },
      '400 invalid notification': {
        summary: 'An empty title and an unknown urgency',
        body: invalidPush,
        answer: refusal(v.sendPush, invalidPush),
      },
    },
  },
};
