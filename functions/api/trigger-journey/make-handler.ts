/** POST /api/journeys/{journey_id}/trigger, made from its ports: handler.ts passes the container's, a test its fakes. */
import { jsonApi, type KeyPorts } from '../../http/json-api';
import { json } from '../../http/response';
import { triggerJourney, type TriggerJourneyPorts } from './core';
import { validTriggerJourney } from './schema';

export type TriggerJourneyHandlerPorts = KeyPorts & TriggerJourneyPorts;

export function makeTriggerJourneyHandler(ports: TriggerJourneyHandlerPorts) {
  const trigger = triggerJourney(ports);
  return jsonApi({ scopes: ['server'], validate: validTriggerJourney, keys: ports.keys }).handler(async (event, context) =>
    json(200, await trigger(event.body, context.principal.appId, event.pathParameters?.journey_id ?? '')),
  );
}
