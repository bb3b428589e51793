/** POST /enterprises/sign_in (spec 4.3, DECISIONS.md "Enterprise users"). */
import { appIdSchema } from '../shared/domain/attributes';
import { enterpriseLimits } from '../shared/domain/enterprise';

export const signInBodySchema = {
  type: 'object',
  required: ['app_id', 'user_id'],
  properties: {
    app_id: appIdSchema,
    user_id: { type: 'string', minLength: 1, maxLength: enterpriseLimits.userIdLength },
  },
  additionalProperties: false,
} as const;

export interface SignInBody {
  app_id: string;
  user_id: string;
}

export interface SignInAnswer {
  /** Shown once; only its hash is kept. */
  token: string;
  /** `{portal origin}/redirect?token=…` */
  redirect_url: string;
  /** ISO 8601 UTC: the token is refused from this moment on. */
  expires_at: string;
}
