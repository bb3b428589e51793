import { affiliateStore, keyResolver } from '../../adapters/stores';
import { makeListAffiliatesHandler } from './make-handler';

export const handler = makeListAffiliatesHandler({ keys: keyResolver(), affiliates: affiliateStore() });
