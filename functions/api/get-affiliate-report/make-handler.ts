/** GET /api/affiliates/{affiliate_id}/report, made from its ports: handler.ts passes the container's, a test its fakes. */
import type { ReportPorts } from '../../back-office/affiliate-report';
import { queryApi, type KeyPorts } from '../../http/json-api';
import { json } from '../../http/response';
import { getAffiliateReport } from './core';
import { validReportQuery } from './schema';

export type GetAffiliateReportHandlerPorts = KeyPorts & ReportPorts;

export function makeGetAffiliateReportHandler(ports: GetAffiliateReportHandlerPorts) {
  const report = getAffiliateReport(ports);
  return queryApi({ scopes: ['server'], validate: validReportQuery, keys: ports.keys }).handler(async (event, context) =>
    json(200, await report(context.principal.appId, event.queryStringParameters, event.pathParameters?.affiliate_id)),
  );
}
