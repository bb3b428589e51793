/** POST /console/api/plans (docs/api.md, "Back office API"): the admin command line's `plan create`, as JSON. */
import { planLimits } from '../../domain/plans';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

/** A decimal as text, as money is everywhere in urm: the use case checks its form and range and names the field. */
const decimalText = { type: 'string', minLength: 1, maxLength: 32 } as const;

export const createPlanBodySchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: planLimits.nameMax, description: 'A name for people.' },
    cpa: {
      type: 'object',
      required: ['amount'],
      properties: {
        amount: { ...decimalText, description: 'Paid per qualified first deposit, e.g. "50".' },
        min_deposit: { ...decimalText, description: 'The smallest first deposit that qualifies (default "0").' },
      },
      additionalProperties: false,
    },
    revshare: {
      type: 'object',
      required: ['percent'],
      properties: {
        percent: { ...decimalText, description: 'Percent of NGR (bets − wins − bonuses), 0 to 100.' },
        carry_over: { type: 'boolean', description: "Carry a month's negative RevShare into the next month." },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;

export type CreatePlanBody = FromRequestSchema<typeof createPlanBodySchema>;

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validCreatePlanBody = compileValidator(createPlanBodySchema);
