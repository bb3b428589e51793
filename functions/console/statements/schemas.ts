/** The query strings and bodies of the console's statements (docs/api.md, "Statements, adjustments and payments"); the use cases check the values. */
import { compileValidator } from '../../domain/validation';

const month = { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}$', description: 'YYYY-MM' } as const;

/** GET …/statements?until=YYYY-MM */
export const statementsQuerySchema = { type: 'object', properties: { until: month }, additionalProperties: false } as const;

/** GET /console/api/statements.csv?month=YYYY-MM */
export const statementsCsvQuerySchema = { type: 'object', required: ['month'], properties: { month }, additionalProperties: false } as const;

/** POST …/statements/{month}/adjustments */
export const adjustmentBodySchema = {
  type: 'object',
  required: ['amount', 'reason'],
  properties: {
    amount: { type: 'string', minLength: 1, maxLength: 16, description: 'A decimal with at most 2 places, not zero, e.g. "-25.50".' },
    reason: { type: 'string', minLength: 1, maxLength: 400, description: 'Why, for the affiliate and the accountants (1–200 characters).' },
  },
  additionalProperties: false,
} as const;

/** POST …/statements/{month}/payment */
export const paymentBodySchema = {
  type: 'object',
  required: ['reference', 'paid_at'],
  properties: {
    reference: { type: 'string', minLength: 1, maxLength: 200, description: "The payment's reference (1–100 characters)." },
    paid_at: { type: 'string', minLength: 10, maxLength: 10, description: 'YYYY-MM-DD, not in the future.' },
  },
  additionalProperties: false,
} as const;

/** POST /console/api/payout-settings */
export const payoutSettingsBodySchema = {
  type: 'object',
  required: ['min_payout'],
  properties: { min_payout: { type: 'string', minLength: 1, maxLength: 16, description: 'The smallest total paid out, e.g. "100".' } },
  additionalProperties: false,
} as const;

export const validStatementsQuery = compileValidator(statementsQuerySchema, 'query string');
export const validStatementsCsvQuery = compileValidator(statementsCsvQuerySchema, 'query string');
export const validAdjustmentBody = compileValidator(adjustmentBodySchema);
export const validPaymentBody = compileValidator(paymentBodySchema);
export const validPayoutSettingsBody = compileValidator(payoutSettingsBodySchema);
