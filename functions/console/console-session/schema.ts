/** GET /console/api/session (docs/api.md, "Back office API"). */
import { roles } from '../../domain/enterprise';
import type { SchemaType } from '../../domain/schema-type';

export const sessionAnswerSchema = {
  type: 'object',
  required: ['user', 'app', 'role', 'csrf_token', 'expires_at'],
  additionalProperties: false,
  properties: {
    user: {
      type: 'object',
      required: ['user_id', 'email', 'first_name', 'last_name'],
      additionalProperties: false,
      properties: { user_id: { type: 'string' }, email: { type: 'string' }, first_name: { type: 'string' }, last_name: { type: 'string' } },
    },
    app: {
      type: 'object',
      required: ['app_id', 'name'],
      additionalProperties: false,
      properties: { app_id: { type: 'string' }, name: { type: 'string' } },
    },
    role: { type: 'string', enum: roles },
    csrf_token: { type: 'string', description: 'Send it as `X-CSRF-Token` with every state-changing call of this session.' },
    expires_at: {
      type: 'string',
      format: 'date-time',
      description: 'The absolute end of the session (12 hours after sign-in); it ends sooner after 30 minutes unused.',
    },
  },
} as const;

export type SessionAnswer = SchemaType<typeof sessionAnswerSchema>;
