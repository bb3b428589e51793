import { appStore, enterpriseUserStore, keyResolver, signInTokenStore } from '../../adapters/stores';
import { newSecret } from '../../domain/secrets-random';
import { makeEnterpriseSignInHandler } from './make-handler';

export const handler = makeEnterpriseSignInHandler({
  keys: keyResolver(),
  users: enterpriseUserStore(),
  apps: appStore(),
  tokens: signInTokenStore(),
  newToken: newSecret,
  now: () => new Date(),
});
