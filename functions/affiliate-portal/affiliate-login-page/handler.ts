/** GET /affiliates/{app_id}/login: the sign-in form (login_url of register_affiliate). */
import { h } from 'preact';
import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { csrfTokenFor } from '../../domain/affiliate-portal';
import { LoginPage } from '../pages/access';
import { page } from '../render';
import { portalApp, portalRoute, preSession } from '../route';

const apps = new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar));

/** What the page says on arrival, from where the person came (sign-out, reset, an ended session). */
const notices = ['signed-out', 'reset', 'expired'] as const;

export const handler = portalRoute().handler(async (event) => {
  const portal = await portalApp(apps, event);
  if (!portal.found) return portal.response;
  const pre = preSession(event, portal.appId, portal.cookieSecure);
  const notice = notices.find((candidate) => candidate === event.queryStringParameters?.notice);
  return page(200, h(LoginPage, { appName: portal.app.name, csrf: csrfTokenFor(pre.id), problem: notice }), {
    cookies: pre.setCookie ? [pre.setCookie] : [],
  });
});
