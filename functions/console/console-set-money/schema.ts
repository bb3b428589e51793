import { compileValidator, type FromRequestSchema } from '../../domain/validation';
/** POST /console/api/money (docs/api.md, "Back office API", "Settings"): the rules are setMoneySettings', as for the command line. */
export const setMoneyBodySchema = {
  type: 'object',
  minProperties: 1,
  properties: {
    currency: { type: 'string', description: 'The main currency (ISO 4217, e.g. EUR).' },
    money_events: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Event name → deposit, withdrawal, bet, win or bonus; replaces the mapping.',
    },
  },
  additionalProperties: false,
} as const;

export type SetMoneyBody = FromRequestSchema<typeof setMoneyBodySchema>;

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validSetMoneyBody = compileValidator(setMoneyBodySchema);
