/** POST /console/api/players/{profile_id}/push */
import { actionIdSchema, type PlayerPush } from '../shared/back-office/messaging';
import { compileValidator } from '../shared/domain/validation';
import { pushMessageProperties } from '../shared/messaging/push';

export const playerPushSchema = {
  type: 'object',
  required: ['title', 'body'],
  additionalProperties: false,
  properties: { ...pushMessageProperties, action_id: actionIdSchema },
} as const;

export const validPlayerPush = compileValidator<PlayerPush>(playerPushSchema);
