import { keyResolver, profileStore } from '../../adapters/stores';
import { makeGetProfileHandler } from './make-handler';

export const handler = makeGetProfileHandler({ keys: keyResolver(), profiles: profileStore() });
