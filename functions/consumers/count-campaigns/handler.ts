import { appStore, campaignResultsStore, rejectionLog } from '../../adapters/stores';
import { makeCountCampaignsHandler } from './make-handler';

export const handler = makeCountCampaignsHandler({ store: campaignResultsStore(), apps: appStore(), rejections: rejectionLog() });
