/** POST /console/api/players/{profile_id}/email */
import { actionIdSchema, type PlayerEmail } from '../shared/back-office/messaging';
import { compileValidator } from '../shared/domain/validation';
import { emailMessageProperties } from '../shared/messaging/email';

export const playerEmailSchema = {
  type: 'object',
  // No recipients: the mail goes to the player's own address.
  required: ['channel_id', 'subject'],
  additionalProperties: false,
  properties: { ...emailMessageProperties, action_id: actionIdSchema },
} as const;

export const validPlayerEmail = compileValidator<PlayerEmail>(playerEmailSchema);
