/** GET /affiliates/{app_id}/reset?token=…: the new-password form, if the link can still be used. */
import { h } from 'preact';
import { tables } from '../../manifest/resources';
import { DynamoAppStore } from '../../adapters/dynamo-app-store';
import { DynamoResetTokenStore } from '../../adapters/dynamo-reset-token-store';
import { dynamo } from '../../adapters/clients/dynamo';
import { requireEnv } from '../../runtime/config';
import { csrfTokenFor } from '../../domain/affiliate-portal';
import { ResetLinkRefusedPage, ResetPage } from '../pages/access';
import { page } from '../render';
import { checkResetToken } from '../reset';
import { portalApp, portalRoute, preSession } from '../route';

const apps = new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar));
const check = checkResetToken({ tokens: new DynamoResetTokenStore(dynamo, requireEnv(tables.resetTokens.envVar)), now: () => new Date() });

export const handler = portalRoute().handler(async (event) => {
  const portal = await portalApp(apps, event);
  if (!portal.found) return portal.response;
  const token = event.queryStringParameters?.token;
  const state = await check(portal.appId, token);
  const appName = portal.app.name;
  if (state !== 'consumed') return page(state === 'unknown' ? 404 : 410, h(ResetLinkRefusedPage, { appName, reason: state }));
  const pre = preSession(event, portal.appId, portal.cookieSecure);
  return page(200, h(ResetPage, { appName, csrf: csrfTokenFor(pre.id), token: token! }), { cookies: pre.setCookie ? [pre.setCookie] : [] });
});
