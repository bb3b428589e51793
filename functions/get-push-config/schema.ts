/** GET /push/config?app_id=… (browser key): what the push SDK needs to subscribe. */
import { appIdSchema } from '../shared/domain/attributes';

export const pushConfigQuerySchema = {
  type: 'object',
  required: ['app_id'],
  properties: { app_id: appIdSchema },
  additionalProperties: false,
} as const;

export interface PushConfigQuery {
  app_id: string;
}

export interface PushConfig {
  /** The application server key (VAPID, P-256, base64url) for `pushManager.subscribe`. */
  vapid_public_key: string;
}
