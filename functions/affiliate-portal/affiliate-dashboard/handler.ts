/** GET /affiliates/{app_id}/: the signed-in affiliate's dashboard for a period (default: this month). */
import { h } from 'preact';
import { SESSION_COOKIE } from '../cookies';
import { DashboardPage } from '../pages/dashboard';
import { page, seeOther } from '../render';
import { portalApp, portalRoute } from '../route';
import { cookieOf } from '../../http/html';
import { dashboardFromEnvironment } from '../dashboard-from-env';

const { apps, dashboard } = dashboardFromEnvironment();

export const handler = portalRoute().handler(async (event) => {
  const portal = await portalApp(apps, event);
  if (!portal.found) return portal.response;
  const query = event.queryStringParameters ?? {};
  const view = await dashboard(portal.appId, cookieOf(event, SESSION_COOKIE), { from: query.from, to: query.to });
  if (!view.signedIn) return seeOther(view.hadSession ? 'login?notice=expired' : 'login');
  return page(
    200,
    h(DashboardPage, {
      appName: portal.app.name,
      name: `${view.affiliate.first_name} ${view.affiliate.last_name}`,
      csrf: view.csrf,
      period: view.period,
      adjusted: view.adjusted,
      report: view.report,
    }),
  );
});
