/**
 * Enters a player into an API-triggered journey: checks the journey (known,
 * live, entered by the API), then writes one `urm_journey_triggered` event to
 * the stream. The journeys consumer enters the player from it, so an entry
 * happens once whatever the retries: the event's insert id is derived from
 * the journey and the caller's id, and the entry's id from that.
 */
import { createHash } from 'node:crypto';
import { Conflict, NotFound } from '../../domain/errors';
import { toStreamEntries, type IngestDeps } from '../../domain/ingest';
import { JOURNEY_TRIGGERED_EVENT } from '../../domain/journeys/runner';
import { journeyIdPattern, type JourneyStore } from '../../domain/journeys/store';
import type { TriggerJourneyRequest } from './schema';

export interface TriggerJourneyPorts extends IngestDeps {
  journeys: Pick<JourneyStore, 'get' | 'version'>;
}

const journeyId = new RegExp(journeyIdPattern);

export function triggerJourney(ports: TriggerJourneyPorts) {
  return async (input: TriggerJourneyRequest, callerAppId: string, id: string) => {
    const head = journeyId.test(id) ? await ports.journeys.get(callerAppId, id) : undefined;
    if (!head || head.status === 'archived') throw new NotFound('no journey with this id');
    const version = await ports.journeys.version(callerAppId, id, head.version);
    if (!version || !('api' in version.definition.entry)) throw new Conflict('this journey is not entered through the API');
    if (head.status !== 'live') throw new Conflict('this journey is not live');
    const insertId = input.insert_id ?? ports.newId();
    const now = ports.now();
    const record = {
      app_id: input.app_id,
      profile_id: input.profile_id,
      event: JOURNEY_TRIGGERED_EVENT,
      urm_insert_id: `urm-jt-${createHash('sha256')
        .update(JSON.stringify([id, insertId]))
        .digest('base64url')
        .slice(0, 32)}`,
      urm_date_time: now.toISOString(),
      journey_id: id,
      data: input.data ?? {},
    };
    const receipt = await ports.writer.write(toStreamEntries('event', [record], callerAppId, { newId: ports.newId, now: () => now }));
    if (receipt.FailedRecordCount > 0) throw new Error('the stream refused the trigger');
    return { message: 'Journey triggered' as const, journey_id: id, profile_id: input.profile_id, insert_id: insertId };
  };
}
