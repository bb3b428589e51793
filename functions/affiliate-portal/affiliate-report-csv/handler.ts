/** GET /affiliates/{app_id}/report.csv?from&to: the dashboard's report as a CSV download. */
import { SESSION_COOKIE } from '../cookies';
import { csvFileName, reportCsv } from '../../back-office/affiliate-report-csv';
import { portalSecurityHeaders, seeOther } from '../render';
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
  return {
    statusCode: 200,
    headers: {
      ...portalSecurityHeaders,
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${csvFileName(view.report)}"`,
    },
    body: reportCsv(view.report),
  };
});
