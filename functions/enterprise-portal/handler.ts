/** The enterprise portal's one function: GET /redirect (a sign-in link) and GET /portal (old links, sent to the console). */
import { appStore, portalSessionStore, signInTokenStore } from '../adapters/stores';
import { makeEnterprisePortalHandler } from './make-handler';

export const handler = makeEnterprisePortalHandler({ tokens: signInTokenStore(), sessions: portalSessionStore(), apps: appStore() });
