/** The affiliates routes (affiliates/routes.ts) over the back office's use cases, made from their ports. */
import { clickAddress, createLinkForAffiliate } from '../../back-office/affiliate-links';
import { affiliateReport, affiliateTrace, traceLimits } from '../../back-office/affiliate-report';
import { csvFileName, reportCsv } from '../../back-office/affiliate-report-csv';
import { affiliateDetail, assignPlan, listAffiliatesWithPlans, setAffiliateStatus } from '../../back-office/affiliates';
import { archivePlan, createPlan, editPlan, listPlans, planVersions } from '../../back-office/plans';
import type { BackOffice } from '../../back-office/ports';
import { changeAffiliatePostbacks, postbackDeliveries, postbackSettingsOf } from '../../back-office/postbacks';
import { affiliateIdOf } from '../../domain/affiliates';
import { versionOf } from '../../domain/deals';
import { NotFound } from '../../domain/errors';
import { describePlan } from '../../domain/plans';
import { consoleActor } from '../../http/console-auth';
import { answer, type Implementations } from '../route';
import type { routes } from './routes';

export type AffiliatesPorts = Pick<
  BackOffice,
  'apps' | 'affiliates' | 'plans' | 'statementLock' | 'links' | 'funnel' | 'timeline' | 'secrets' | 'audit' | 'now'
> & {
  postbacks: Pick<BackOffice['postbacks'], 'settings' | 'log' | 'allowedHosts'>;
};

/** The plan id of a console path: one no plan can have is simply not found. */
function planIdOf(path: { plan_id?: string }): string {
  const planId = path.plan_id ?? '';
  if (planId.length === 0 || planId.length > 128) throw new NotFound('Not Found');
  return planId;
}

/** The host of a postback URL template, if it parses: what the console may show of it. */
function hostOf(template: string): string | null {
  try {
    return new URL(template).host;
  } catch {
    return null;
  }
}

export function affiliatesHandlers(office: AffiliatesPorts) {
  const detail = affiliateDetail(office);
  const report = affiliateReport(office);
  const trace = affiliateTrace(office);
  const createLink = createLinkForAffiliate(office);
  // Click addresses are on the application's portal origin, which serves /t/{link_id} as it serves the portal; without
  // one only the path: never the request's Host, which the sender writes (docs/api.md, "Security").
  const clickOrigin = async (appId: string) => (await office.apps.get(appId))?.portal_origin ?? '';
  const planView = ({ app_id: _app, ...plan }: Awaited<ReturnType<typeof createPlan>>) => ({ ...plan, version: versionOf(plan), terms: describePlan(plan) });
  return {
    ConsoleListAffiliates: async ({ identity, query }) =>
      answer(
        200,
        await listAffiliatesWithPlans(office, identity.appId, {
          status: query.status,
          cursor: query.cursor,
          limit: query.limit === undefined ? undefined : Number(query.limit),
        }),
      ),

    ConsoleGetAffiliate: async ({ identity, path }) =>
      answer(200, { affiliate: await detail(identity.appId, affiliateIdOf(path), await clickOrigin(identity.appId)) }),

    ConsoleSetAffiliateStatus: async ({ identity, path, body }) =>
      answer(200, { affiliate: await setAffiliateStatus(office, identity.appId, consoleActor(identity), affiliateIdOf(path), body.status) }),

    ConsoleAssignAffiliatePlan: async ({ identity, path, body }) =>
      answer(200, { affiliate: await assignPlan(office, identity.appId, consoleActor(identity), affiliateIdOf(path), body.plan_id, body.from) }),

    ConsoleListPlans: async ({ identity }) => answer(200, { plans: (await listPlans(office, identity.appId)).map(planView) }),

    ConsoleCreatePlan: async ({ identity, body }) => answer(201, { plan: planView(await createPlan(office, identity.appId, consoleActor(identity), body)) }),

    ConsoleEditPlan: async ({ identity, path, body }) =>
      answer(200, { plan: planView(await editPlan(office, identity.appId, consoleActor(identity), planIdOf(path), body)) }),

    ConsoleArchivePlan: async ({ identity, path }) =>
      answer(200, { plan: planView(await archivePlan(office, identity.appId, consoleActor(identity), planIdOf(path))) }),

    ConsolePlanVersions: async ({ identity, path }) => answer(200, { versions: (await planVersions(office, identity.appId, planIdOf(path))).map(planView) }),

    ConsoleAffiliateReport: async ({ identity, path, query }) =>
      answer(200, await report(identity.appId, affiliateIdOf(path), query.from, query.to, { subIds: true })),

    ConsoleAffiliateReportCsv: async ({ identity, path, query }) => {
      const result = await report(identity.appId, affiliateIdOf(path), query.from, query.to, { subIds: true });
      return {
        statusCode: 200,
        headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${csvFileName(result, { affiliate: true })}"` },
        body: reportCsv(result),
      };
    },

    ConsoleAffiliateTrace: async ({ identity, path, query }) => {
      const limit = query.limit === undefined ? traceLimits.default : Number(query.limit);
      return answer(200, await trace(identity.appId, affiliateIdOf(path), query.from, query.to, { limit, cursor: query.cursor }));
    },

    ConsoleCreateAffiliateLink: async ({ identity, path, body }) => {
      const link = await createLink(identity.appId, consoleActor(identity), affiliateIdOf(path), body);
      const origin = await clickOrigin(identity.appId);
      return answer(201, {
        link: {
          link_id: link.link_id,
          name: link.name,
          landing_url: link.landing_url,
          created_at: link.created_at,
          click_url: clickAddress(origin, link.link_id),
        },
      });
    },

    ConsoleAffiliatePostbacks: async ({ identity, path, query }) => {
      const affiliateId = affiliateIdOf(path);
      const { postback_url: url, postback_events } = await postbackSettingsOf(office, identity.appId, affiliateId);
      const deliveries = await postbackDeliveries(office, identity.appId, affiliateId, query.limit ? Number(query.limit) : undefined);
      return answer(200, { postback_url_set: url !== null, postback_host: url === null ? null : hostOf(url), postback_events, deliveries });
    },

    ConsoleUpdateAffiliatePostbacks: async ({ identity, path, body }) => {
      const settings = await changeAffiliatePostbacks(office, identity.appId, consoleActor(identity), affiliateIdOf(path), body);
      return answer(200, {
        postback_url_set: settings.postback_url !== null,
        ...(settings.signing_secret ? { signing_secret: settings.signing_secret } : {}),
      });
    },
  } satisfies Implementations<typeof routes>;
}
