import { tables } from '../shared/manifest/resources';
import { DynamoAppStore } from '../shared/adapters/dynamo-app-store';
import { DynamoEnterpriseUserStore } from '../shared/adapters/dynamo-enterprise-user-store';
import { DynamoSessionStore } from '../shared/adapters/dynamo-session-store';
import { dynamo } from '../shared/clients/dynamo';
import { requireEnv } from '../shared/config';
import { cookieOf, html, htmlApi } from '../shared/http/html';
import { errorPage, notSignedInPage, portalHomePage } from '../shared/portal/pages';
import { SESSION_COOKIE } from '../shared/portal/session-cookie';
import { showPortalHome } from './core';

const show = showPortalHome({
  sessions: new DynamoSessionStore(dynamo, requireEnv(tables.portalSessions.envVar)),
  users: new DynamoEnterpriseUserStore(dynamo, requireEnv(tables.enterpriseUsers.envVar)),
  apps: new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)),
  now: () => new Date(),
});

export const handler = htmlApi({ errorPage }).handler(async (event) => {
  const home = await show(cookieOf(event, SESSION_COOKIE));
  return home.signedIn ? html(200, portalHomePage(home)) : html(401, notSignedInPage());
});
