/** The query strings and bodies of the console's templates (docs/api.md, "Templates"). */
import { profileIdSchema } from '../../domain/attributes';
import { templateIdPattern, templateLimits } from '../../domain/templates';
import { compileValidator } from '../../domain/validation';

/** The template itself is checked by the use case (checkTemplate), whose messages name every problem at once. */
const template = { type: 'object', description: 'A template (docs/api.md, "Templates").' } as const;

/** A template as JSON, and room for the rest of a body. */
export const templateBodyBytes = templateLimits.templateBytes + 32 * 1024;

/** GET /console/api/templates?archived=true */
export const listTemplatesQuerySchema = {
  type: 'object',
  properties: { archived: { enum: ['true', 'false'], description: 'true: archived templates too.' } },
  additionalProperties: false,
} as const;

/** POST /console/api/templates/{template_id}: the version read, and the template as it should be. */
export const updateTemplateSchema = {
  type: 'object',
  required: ['version', 'template'],
  properties: {
    version: {
      type: 'integer',
      minimum: 1,
      maximum: 1_000_000_000,
      description: 'The version the change was made on: a 409 when it is no longer the stored one.',
    },
    template,
  },
  additionalProperties: false,
} as const;

/** POST /console/api/template-previews and /console/api/template-test-sends: a saved template or the editor's draft, a player, an example event. */
export const renderTemplateSchema = {
  type: 'object',
  properties: {
    template_id: { type: 'string', pattern: templateIdPattern, description: 'A saved template (when no draft is given).' },
    template: { ...template, description: "The editor's unsaved draft." },
    profile_id: { ...profileIdSchema, description: 'The player whose attributes it renders with; none: an empty player.' },
    data: { type: 'object', maxProperties: 200, description: "The example event's properties (the template's `event`)." },
  },
  additionalProperties: false,
} as const;

// Checks of the query strings and bodies (functions/domain/validation.ts); precompiled in the bundle.
export const validListTemplatesQuery = compileValidator(listTemplatesQuerySchema, 'query string');
export const validCreateTemplate = compileValidator(template);
export const validUpdateTemplate = compileValidator(updateTemplateSchema);
export const validRenderTemplate = compileValidator(renderTemplateSchema);
