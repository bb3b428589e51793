/** POST /enterprises/sign_up (docs/api.md, "Sign-up"). */
import { appIdSchema } from '../../domain/attributes';
import { enterpriseLimits, roles, signUpRoles } from '../../domain/enterprise';
import type { SchemaType } from '../../domain/schema-type';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

/** A name a person can read: not blank, no control characters. */
export const personNameSchema = {
  type: 'string',
  maxLength: enterpriseLimits.nameLength,
  pattern: '^[^\\p{Cc}]*[^\\p{Cc}\\s][^\\p{Cc}]*$',
  description: 'a non-blank name without control characters',
} as const;

export const enterpriseUserSchema = {
  type: 'object',
  required: ['email', 'first_name', 'last_name'],
  properties: {
    email: { type: 'string', format: 'email', maxLength: enterpriseLimits.emailLength },
    first_name: personNameSchema,
    last_name: personNameSchema,
    role: {
      type: 'string',
      enum: signUpRoles,
      description:
        "The user's role in the application: `marketer` or `viewer` (`admin` is refused: an admin makes admins in the console, the operator with " +
        '`npm run admin -- portal role`). Without one, the first user an application ever has is its `admin`, any later one a `viewer`.',
    },
  },
  additionalProperties: false,
} as const;

export const signUpBodySchema = {
  type: 'object',
  required: ['app_id', 'users'],
  properties: {
    app_id: appIdSchema,
    users: { type: 'array', minItems: 1, maxItems: enterpriseLimits.usersPerSignUp, items: enterpriseUserSchema },
  },
  additionalProperties: false,
} as const;

export type SignUpUser = FromRequestSchema<typeof enterpriseUserSchema>;
export type SignUpBody = FromRequestSchema<typeof signUpBodySchema>;

export const signedUpUserSchema = {
  type: 'object',
  required: ['user_id', 'email', 'first_name', 'last_name', 'role', 'created'],
  additionalProperties: false,
  properties: {
    user_id: { type: 'string', pattern: '^usr_[0-9a-f]{24}$', description: 'Sign the user in with this id.' },
    email: { type: 'string', format: 'email' },
    first_name: { type: 'string' },
    last_name: { type: 'string' },
    role: { type: 'string', enum: roles, description: "The user's role: for an existing user, the one it has (a sign-up does not change it)." },
    created: {
      type: 'boolean',
      description: 'False when the email was already signed up in the application: that user is returned, unchanged.',
    },
  },
} as const;

export const signUpAnswerSchema = {
  type: 'object',
  required: ['users'],
  additionalProperties: false,
  properties: { users: { type: 'array', description: 'One entry per user of the request, in its order.', items: signedUpUserSchema } },
} as const;

export type SignedUpUser = SchemaType<typeof signedUpUserSchema>;
export type SignUpAnswer = SchemaType<typeof signUpAnswerSchema>;

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validSignUpBody = compileValidator(signUpBodySchema);
