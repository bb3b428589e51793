import { keyResolver, reportStores } from '../../adapters/stores';
import { makeGetAffiliateReportHandler } from './make-handler';

export const handler = makeGetAffiliateReportHandler({ keys: keyResolver(), ...reportStores() });
