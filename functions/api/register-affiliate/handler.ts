import { affiliateStore, appStore, keyResolver, planStore } from '../../adapters/stores';
import { newAffiliateId } from '../../domain/affiliates';
import { hashPassword } from '../../domain/passwords';
import { makeRegisterAffiliateHandler } from './make-handler';

export const handler = makeRegisterAffiliateHandler({
  keys: keyResolver(),
  affiliates: affiliateStore(),
  apps: appStore(),
  plans: planStore(),
  hashPassword: (password) => hashPassword(password),
  newId: newAffiliateId,
  now: () => new Date(),
});
