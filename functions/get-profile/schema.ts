/** GET /profiles/{profile_id}?app_id=… */
import { appIdSchema, profileIdSchema } from '../shared/domain/attributes';

export const profileQuerySchema = {
  type: 'object',
  required: ['app_id'],
  properties: { app_id: appIdSchema },
  additionalProperties: false,
} as const;

export interface ProfileQuery {
  app_id: string;
}

export const profilePathSchema = profileIdSchema;

export interface ProfileView {
  app_id: string;
  profile_id: string;
  attributes: Record<string, unknown>;
  updated_at: string;
}
