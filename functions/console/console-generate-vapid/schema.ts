import { compileValidator, type FromRequestSchema } from '../../domain/validation';
/** POST /console/api/vapid (docs/api.md, "Back office API", "Settings"). */
export const generateVapidBodySchema = {
  type: 'object',
  properties: {
    subject: {
      type: 'string',
      minLength: 1,
      maxLength: 512,
      description: 'mailto:… or https://…; default: the one the application has, else its https portal origin.',
    },
    rotate: { type: 'boolean', description: 'Replace existing keys: existing subscriptions stop receiving until their page runs initNotification again.' },
  },
  additionalProperties: false,
} as const;

export type GenerateVapidBody = FromRequestSchema<typeof generateVapidBodySchema>;

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validGenerateVapidBody = compileValidator(generateVapidBodySchema);
