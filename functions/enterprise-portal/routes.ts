/**
 * The enterprise portal's routes: where a sign-in link lands. `/redirect`
 * spends the one-time token and starts the session the console runs on;
 * `/portal`, the landing page before the console, now sends old links there.
 */
import type { RouteDefinition } from '../manifest/routes';

export const routes = [
  {
    // Browser-facing, no API key: the one-time token is the credential.
    id: 'EnterpriseRedirect',
    method: 'GET',
    path: '/redirect',
    tables: { apps: 'read', signInTokens: 'write', portalSessions: 'write' },
    documented: true,
  },
  { id: 'PortalHome', method: 'GET', path: '/portal', tables: {}, documented: true },
] as const satisfies readonly RouteDefinition[];
