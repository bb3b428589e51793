/** POST /enterprises/sign_in (docs/api.md, "Sign-in"). */
import { appIdSchema } from '../../domain/attributes';
import { enterpriseLimits } from '../../domain/enterprise';
import { SECRET_PATTERN } from '../../domain/secrets-random';
import type { SchemaType } from '../../domain/schema-type';
import { identifierText } from '../../domain/text';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const signInBodySchema = {
  type: 'object',
  required: ['app_id', 'user_id'],
  properties: {
    app_id: appIdSchema,
    user_id: { type: 'string', minLength: 1, maxLength: enterpriseLimits.userIdLength, ...identifierText },
  },
  additionalProperties: false,
} as const;

export type SignInBody = FromRequestSchema<typeof signInBodySchema>;

export const signInAnswerSchema = {
  type: 'object',
  required: ['token', 'redirect_url', 'expires_at'],
  additionalProperties: false,
  properties: {
    token: { type: 'string', pattern: SECRET_PATTERN.source, description: 'A one-time sign-in token, shown once; only its hash is kept.' },
    redirect_url: { type: 'string', format: 'uri', description: "Where to send the user's browser: `{portal origin}/redirect?token=…`." },
    expires_at: { type: 'string', format: 'date-time', description: 'ISO 8601 UTC: the token is refused from this moment on.' },
  },
} as const;

export type SignInAnswer = SchemaType<typeof signInAnswerSchema>;

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validSignInBody = compileValidator(signInBodySchema);
