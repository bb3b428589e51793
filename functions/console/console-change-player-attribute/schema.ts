/** POST /console/api/players/{profile_id}/attributes */
import { nameSchema, valueSchema } from '../../domain/attributes';
import { limits } from '../../domain/limits';
import { identifierText } from '../../domain/text';
import { compileValidator } from '../../domain/validation';

export const changeAttributeSchema = {
  type: 'object',
  required: ['action', 'attribute'],
  properties: {
    action: { enum: ['set', 'unset'], description: 'set: give the attribute `value`; unset: make it null (as urm_unset).' },
    attribute: { ...nameSchema(), description: 'A custom attribute (system urm_* attributes are not changed here).' },
    value: valueSchema,
    action_id: {
      type: 'string',
      minLength: 1,
      maxLength: limits.insertIdLength - 'urm-bo-'.length,
      ...identifierText,
      description: 'Chosen by the console; re-sending the same action_id changes the player once.',
    },
  },
  allOf: [
    { if: { properties: { action: { const: 'set' } } }, then: { properties: { value: true }, required: ['value'] } },
    {
      if: { properties: { action: { const: 'unset' } } },
      then: { properties: { action: true, attribute: true, action_id: true }, additionalProperties: false },
    },
  ],
  additionalProperties: false,
} as const;

export const validChangeAttribute = compileValidator(changeAttributeSchema);
