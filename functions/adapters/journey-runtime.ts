/**
 * The journey runner as the consumer and the timer both wire it: the
 * container's stores, the template sender (./senders.ts), the stream, the
 * application's clock.
 */
import { randomUUID } from 'node:crypto';
import type { Attributes } from '../domain/attributes';
import { journeyRunner, type JourneyRunner } from '../domain/journeys/runner';
import type { JourneyStore } from '../domain/journeys/store';
import { statePk } from '../domain/segments/model';
import { partitionKey } from '../domain/stream-record';
import { nowFor } from '../runtime/clock';
import { containerTemplateSender } from './senders';
import { journeyStore, segmentStateStore, timelineStore } from './stores';

export function journeyRuntime(): { journeys: JourneyStore; runner: JourneyRunner } {
  const { apps, profiles, writer, sendTemplate } = containerTemplateSender();
  const journeys = journeyStore();
  const states = segmentStateStore();
  const runner = journeyRunner({
    journeys,
    send: sendTemplate,
    stream: writer,
    apps,
    profiles: {
      attributes: async (appId, profileId) => {
        const profile = await profiles.get(partitionKey(appId, profileId), true);
        return profile?.exists ? (JSON.parse(profile.attrs) as Attributes) : {};
      },
    },
    timeline: timelineStore(),
    members: async (appId, profileId) => {
      const state = (await states.states([statePk(appId, profileId)])).get(statePk(appId, profileId));
      return new Set(Object.entries(state?.memberships ?? {}).flatMap(([id, membership]) => (membership.member ? [id] : [])));
    },
    now: nowFor,
    newId: randomUUID,
  });
  return { journeys, runner };
}
