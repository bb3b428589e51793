import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoEnterpriseUserStore } from '../../adapters/dynamo-enterprise-user-store';
import { DynamoSessionStore } from '../../adapters/dynamo-session-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { cookieOf, html, htmlApi } from '../../http/html';
import { errorPage, notSignedInPage, portalHomePage } from '../pages';
import { SESSION_COOKIE } from '../../http/session-cookie';
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
