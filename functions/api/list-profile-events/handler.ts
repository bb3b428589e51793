import { keyResolver, profileStore, timelineStore } from '../../adapters/stores';
import { makeListProfileEventsHandler } from './make-handler';

export const handler = makeListProfileEventsHandler({ keys: keyResolver(), timeline: timelineStore(), profiles: profileStore() });
