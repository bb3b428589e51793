import { compileValidator, type FromRequestSchema } from '../../domain/validation';
/** POST /console/api/channels/{channel_id} (docs/api.md, "Back office API", "Settings"). */
export const updateChannelBodySchema = {
  type: 'object',
  minProperties: 1,
  properties: {
    enabled: { type: 'boolean' },
    from_domain: {
      anyOf: [{ type: 'string', minLength: 1, maxLength: 253 }, { type: 'null' }],
      description: "Any address at this domain (the from email's own) may send; null: the from email only.",
    },
  },
  additionalProperties: false,
} as const;

export type UpdateChannelBody = FromRequestSchema<typeof updateChannelBodySchema>;

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validUpdateChannelBody = compileValidator(updateChannelBodySchema);
