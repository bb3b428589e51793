import { keyResolver, segmentStore } from '../../adapters/stores';
import { makeListSegmentsHandler } from './make-handler';

export const handler = makeListSegmentsHandler({ keys: keyResolver(), segments: segmentStore() });
