import { enterpriseUserStore, keyResolver } from '../../adapters/stores';
import { newUserId } from '../../domain/enterprise';
import { makeEnterpriseSignUpHandler } from './make-handler';

export const handler = makeEnterpriseSignUpHandler({ keys: keyResolver(), users: enterpriseUserStore(), newUserId, now: () => new Date() });
