/** POST /console/api/players/{profile_id}/email */
import { actionIdSchema } from '../../back-office/messaging';
import { compileValidator } from '../../domain/validation';
import { emailMessageProperties } from '../../messaging/email';

export const playerEmailSchema = {
  type: 'object',
  // No recipients: the mail goes to the player's own address.
  required: ['channel_id', 'subject'],
  additionalProperties: false,
  properties: { ...emailMessageProperties, action_id: actionIdSchema },
} as const;

export const validPlayerEmail = compileValidator(playerEmailSchema);
