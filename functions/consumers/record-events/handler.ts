import { profileStore, rejectionLog, timelineStore } from '../../adapters/stores';
import { makeRecordEventsHandler } from './make-handler';

export const handler = makeRecordEventsHandler({ profiles: profileStore(), timeline: timelineStore(), rejections: rejectionLog(), now: () => new Date() });
