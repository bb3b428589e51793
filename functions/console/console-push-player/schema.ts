/** POST /console/api/players/{profile_id}/push */
import { actionIdSchema } from '../../back-office/messaging';
import { compileValidator } from '../../domain/validation';
import { pushMessageProperties } from '../../messaging/push';

export const playerPushSchema = {
  type: 'object',
  required: ['title', 'body'],
  additionalProperties: false,
  properties: { ...pushMessageProperties, action_id: actionIdSchema },
} as const;

export const validPlayerPush = compileValidator(playerPushSchema);
