import { keyResolver, segmentStore } from '../../adapters/stores';
import { makeListSegmentMembersHandler } from './make-handler';

export const handler = makeListSegmentMembersHandler({ keys: keyResolver(), segments: segmentStore() });
