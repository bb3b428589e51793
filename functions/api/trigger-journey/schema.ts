/** POST /api/journeys/{journey_id}/trigger (server key; docs/api.md, "Journeys"). */
import { appIdSchema, profileIdSchema } from '../../domain/attributes';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

export const triggerJourneySchema = {
  type: 'object',
  required: ['app_id', 'profile_id'],
  additionalProperties: false,
  properties: {
    app_id: appIdSchema,
    profile_id: profileIdSchema,
    data: {
      type: 'object',
      maxProperties: 100,
      description: "What the journey's templates read as `event` (`{{ event.bonus_code }}`); at most 100 properties.",
    },
    insert_id: {
      type: 'string',
      minLength: 1,
      maxLength: 128,
      pattern: '^[A-Za-z0-9_.:-]+$',
      description: 'Your id for this trigger, to call again safely: the same id enters the player once. Absent: a new one.',
    },
  },
} as const;

export type TriggerJourneyRequest = FromRequestSchema<typeof triggerJourneySchema>;

export const journeyTriggeredSchema = {
  type: 'object',
  required: ['message', 'journey_id', 'profile_id', 'insert_id'],
  additionalProperties: false,
  properties: {
    message: { const: 'Journey triggered' },
    journey_id: { type: 'string' },
    profile_id: { type: 'string' },
    insert_id: { type: 'string', description: 'The id of this trigger (yours, or the one made for it).' },
  },
} as const;

/** Checks the request body (functions/domain/validation.ts); precompiled in the bundle. */
export const validTriggerJourney = compileValidator(triggerJourneySchema);
