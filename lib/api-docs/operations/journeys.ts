/** Journeys: entering a player into an API-triggered journey, from the integrator's server. */
import { journeyTriggeredSchema, validTriggerJourney } from '../../../functions/api/trigger-journey/schema';
import { messageBodySchema } from '../../../functions/http/error-bodies';
import { placeholders as p } from '../placeholders';
import { notFound, refusal } from './common';
import type { OperationDoc, ParameterDoc } from './doc-types';

const journeyIdParameter: ParameterDoc = {
  name: 'journey_id',
  in: 'path',
  required: true,
  description: 'The journey, as the console or `npm run admin -- journeys list` names it.',
  schema: { type: 'string', minLength: 2, maxLength: 64 },
};

const welcome = p.journeyId;

export const journeyDocs: Record<string, OperationDoc> = {
  TriggerJourney: {
    tag: 'Journeys',
    summary: 'Enter a player into a journey',
    description:
      'Enters the player into a live journey whose entry is `{"api": true}`, with `data` as what its templates read as ' +
      "`event`. The entry runs on the stream within seconds, under the journey's audience and re-entry rules (a player " +
      'the rules keep out is not entered; the answer is the same). Pass your own `insert_id` to call again safely: the ' +
      'same id enters the player once. An unknown or archived journey is a 404; a journey entered otherwise, or not live ' +
      '(a draft, paused), is a 409.',
    scopes: ['server'],
    parameters: [journeyIdParameter],
    body: { validate: validTriggerJourney, description: 'The player and the data.' },
    responses: {
      200: { description: 'Triggered: the entry is on the stream.', schema: journeyTriggeredSchema },
      404: { description: 'No such journey in the application, or an archived one.', schema: messageBodySchema },
      409: {
        description: 'The journey is not entered through the API, or is not live: nobody is entered.',
        schema: messageBodySchema,
        illustrations: {
          '409 not live': { summary: 'A paused journey', value: { message: 'this journey is not live' } },
        },
      },
    },
    examples: {
      '200 triggered': {
        summary: 'A player and a bonus code for the templates',
        path: { journey_id: welcome },
        body: { app_id: p.appId, profile_id: p.profileId, data: { bonus_code: 'VIP50' }, insert_id: 'crm-42-vip' },
        answer: { message: 'Journey triggered', journey_id: welcome, profile_id: p.profileId, insert_id: 'crm-42-vip' },
      },
      '404 unknown journey': {
        summary: 'A journey id the application does not have',
        path: { journey_id: p.unknownJourneyId },
        body: { app_id: p.appId, profile_id: p.profileId },
        answer: notFound('no journey with this id'),
      },
      '400 data not an object': {
        summary: '`data` must be an object',
        path: { journey_id: welcome },
        body: { app_id: p.appId, profile_id: p.profileId, data: 'VIP50' },
        answer: refusal(validTriggerJourney, { app_id: p.appId, profile_id: p.profileId, data: 'VIP50' }),
      },
    },
  },
};
