/** POST /console/api/channels (docs/api.md, "Back office API", "Settings"): the rules are createChannel's, as for the command line. */
import { emailLimits } from '../../domain/email';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const createChannelBodySchema = {
  type: 'object',
  required: ['name', 'from_email', 'from_name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: emailLimits.channelNameLength },
    from_email: { type: 'string', minLength: 1, maxLength: 254 },
    from_name: { type: 'string', minLength: 1, maxLength: 200 },
    from_domain: { type: 'string', minLength: 1, maxLength: 253, description: "Any address at this domain (the from email's own) may send." },
  },
  additionalProperties: false,
} as const;

export type CreateChannelBody = FromRequestSchema<typeof createChannelBodySchema>;

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validCreateChannelBody = compileValidator(createChannelBodySchema);
