/** The query strings and bodies of the console's journeys (docs/api.md, "Journeys in the console"). */
import { journeyNameLength } from '../../back-office/journeys';
import { journeyIdPattern } from '../../domain/journeys/store';
import { identifierText } from '../../domain/text';
import { compileValidator } from '../../domain/validation';

const journeyName = { type: 'string', minLength: 1, maxLength: journeyNameLength, ...identifierText } as const;
/** The definition's own schema is checked by checkJourney (functions/domain/journeys/definition.ts), whose messages name the path. */
const definition = { type: 'object', description: 'The journey (docs/api.md, "Journeys").' } as const;

/** GET /console/api/journeys?archived=true */
export const listJourneysQuerySchema = {
  type: 'object',
  properties: { archived: { enum: ['true', 'false'], description: 'true: archived journeys too.' } },
  additionalProperties: false,
} as const;

/** POST /console/api/journeys: a draft. */
export const createJourneySchema = {
  type: 'object',
  required: ['name', 'definition'],
  properties: {
    journey_id: { type: 'string', pattern: journeyIdPattern, description: 'Made from the name when left out.' },
    name: journeyName,
    definition,
  },
  additionalProperties: false,
} as const;

/** POST /console/api/journeys/{journey_id}: what is given changes; a new definition is a new version. */
export const editJourneySchema = {
  type: 'object',
  minProperties: 1,
  properties: { name: journeyName, definition },
  additionalProperties: false,
} as const;

export const validListJourneysQuery = compileValidator(listJourneysQuerySchema, 'query string');
export const validCreateJourney = compileValidator(createJourneySchema);
export const validEditJourney = compileValidator(editJourneySchema);
