/** GET /affiliates/{app_id}/forgot: the form that asks for the account's email. */
import { h } from 'preact';
import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { csrfTokenFor } from '../../domain/affiliate-portal';
import { ForgotPage } from '../pages/access';
import { page } from '../render';
import { portalApp, portalRoute, preSession } from '../route';

const apps = new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar));

export const handler = portalRoute().handler(async (event) => {
  const portal = await portalApp(apps, event);
  if (!portal.found) return portal.response;
  const pre = preSession(event, portal.appId, portal.cookieSecure);
  return page(200, h(ForgotPage, { appName: portal.app.name, csrf: csrfTokenFor(pre.id) }), { cookies: pre.setCookie ? [pre.setCookie] : [] });
});
