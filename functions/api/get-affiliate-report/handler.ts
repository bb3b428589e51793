import { affiliateStore, appStore, funnelStore, keyResolver, linkStore, planStore } from '../../adapters/stores';
import { makeGetAffiliateReportHandler } from './make-handler';

export const handler = makeGetAffiliateReportHandler({
  keys: keyResolver(),
  apps: appStore(),
  affiliates: affiliateStore(),
  plans: planStore(),
  funnel: funnelStore(),
  links: linkStore(),
});
