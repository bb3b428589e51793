/**
 * The affiliate portal's one function, made from its ports: a router
 * (functions/http/router.ts) over its routes (routes.ts). Each route is its
 * checks (checks.ts, as its declaration asks) in front of its work (the use
 * cases: sign-in.ts, reset.ts, dashboard.ts, links.ts, postbacks.ts). Around
 * the router, once: the logging context, the error page, header normalising.
 * An address or method no route declares is the not-found page.
 */
import { affiliateDealPlans } from '../back-office/deals';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { h } from 'preact';
import { affiliateReport } from '../back-office/affiliate-report';
import type { BackOffice } from '../back-office/ports';
import type { FunnelReader, LinkStore } from '../domain/affiliate-program';
import type { AffiliateAccounts, AffiliateSessionStore, ResetTokenStore, SignInAttempts } from '../domain/affiliate-portal';
import { newAffiliateId, type AffiliateStore } from '../domain/affiliates';
import { registerAffiliate } from '../back-office/affiliate-registration';
import type { AppStore } from '../domain/apps';
import type { ChannelStore, SenderStore } from '../domain/channels';
import type { Mailer } from '../domain/email';
import type { Clock } from '../domain/enterprise';
import { NotFound } from '../domain/errors';
import { hashPassword, verifyPassword } from '../domain/passwords';
import type { RecordWriter } from '../domain/ingest';
import type { PayoutStore } from '../domain/payouts';
import type { PlanStore } from '../domain/plans';
import type { StatementStore } from '../domain/statements';
import type { ProfileStore } from '../domain/timeline';
import { unsubscribeKeyName } from '../domain/unsubscribe-token';
import { newSecret } from '../domain/secrets-random';
import { routeRequests, type RouteHandler } from '../http/router';
import type { ApiEvent, ApiResult } from '../http/types';
import { logger } from '../runtime/logger';
import { checksOf, sessionVisitOf, signedInVisitOf, unsubscribeVisitOf, visitOf, type PortalContext, type PortalWork } from './checks';
import { dashboardWork } from './dashboard';
import { linksWork } from './links';
import { ErrorPage, NotFoundPage } from './pages/access';
import { paymentsWork } from './payments';
import { joinWork } from './join';
import { postbacksWork } from './postbacks';
import { profileWork } from './profile';
import { page } from './render';
import { resetWork } from './reset';
import { routes, type PortalRoute } from './routes';
import { currentAffiliate } from './session';
import { signInWork } from './sign-in';
import { unsubscribeWork } from './unsubscribe';

export interface AffiliatePortalPorts {
  apps: Pick<AppStore, 'get'>;
  /** The affiliates as accounts: signing in, the password, the session's affiliate. */
  accounts: AffiliateAccounts;
  /** The affiliates as the programme reads them: links, the report. */
  affiliates: Pick<AffiliateStore, 'get' | 'register'>;
  plans: Pick<PlanStore, 'get' | 'getVersion'>;
  funnel: FunnelReader;
  links: Pick<LinkStore, 'create' | 'listByAffiliate'>;
  sessions: AffiliateSessionStore;
  attempts: SignInAttempts;
  resetTokens: ResetTokenStore;
  /** The application's email channels, the first enabled one whose sender it holds sends reset links. */
  channels: Pick<ChannelStore, 'listByApp'>;
  senders: Pick<SenderStore, 'holders'>;
  mailer: Mailer;
  postbacks: BackOffice['postbacks'];
  /** Postback signing secrets, and the unsubscribe keys (read only). */
  secrets: BackOffice['secrets'];
  /** The players an unsubscribe link names: their preferences, read at each visit. */
  profiles: Pick<ProfileStore, 'get'>;
  /** Where an affiliate's own changes (profile, password) are recorded for the operator. */
  audit: BackOffice['audit'];
  /** The stream an unsubscribe is written to. */
  writer: RecordWriter;
  /** Statements, adjustments and payout details (back-office/statements.ts). */
  statements: StatementStore;
  payouts: PayoutStore;
  /** The clock, scrypt and random secrets unless given (tests give cheaper ones). */
  now?: Clock;
  passwords?: { hash(password: string): Promise<string>; verify(password: string, stored: string): Promise<boolean> };
  newSecret?: () => string;
}

/** Logging context → error page → header normalising: what the whole portal runs in. */
function portalChain() {
  return middy<ApiEvent, ApiResult>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use({
      onError: async (request) => {
        // The router's own refusal of a path it cannot decode is no page of ours either.
        if (request.error instanceof NotFound) {
          request.response = page(404, h(NotFoundPage, { missing: 'page' }));
          return;
        }
        logger.error('Request failed', { error: request.error as Error });
        request.response = page(500, h(ErrorPage, {}));
      },
    })
    .use(httpHeaderNormalizer());
}

export function makeAffiliatePortalHandler(ports: AffiliatePortalPorts) {
  const now = ports.now ?? (() => new Date());
  const secret = ports.newSecret ?? newSecret;
  const passwords = ports.passwords ?? { hash: (password: string) => hashPassword(password), verify: verifyPassword };
  // Made on the first sign-in of a container, not at every cold start of the whole portal.
  let decoy: Promise<string> | undefined;
  const current = currentAffiliate({ sessions: ports.sessions, affiliates: ports.accounts, now });

  const work: PortalWork = {
    ...signInWork({
      affiliates: ports.accounts,
      sessions: ports.sessions,
      attempts: ports.attempts,
      verifyPassword: passwords.verify,
      decoyHash: () => (decoy ??= passwords.hash(secret())),
      newSessionId: secret,
      now,
    }),
    ...resetWork({
      affiliates: ports.accounts,
      tokens: ports.resetTokens,
      channels: ports.channels,
      senders: ports.senders,
      attempts: ports.attempts,
      mailer: ports.mailer,
      sessions: ports.sessions,
      hashPassword: passwords.hash,
      newToken: secret,
      now,
    }),
    // The operator's report (GET /api/affiliates/{affiliate_id}/report): one computation behind both.
    ...dashboardWork({ report: affiliateReport(ports), deals: (affiliate) => affiliateDealPlans(ports, affiliate), now }),
    ...linksWork({ apps: ports.apps, affiliates: ports.affiliates, links: ports.links, now }),
    ...postbacksWork(ports),
    ...paymentsWork({ ...ports, report: affiliateReport(ports), now }),
    ...profileWork({
      accounts: ports.accounts,
      sessions: ports.sessions,
      attempts: ports.attempts,
      audit: ports.audit,
      verifyPassword: passwords.verify,
      hashPassword: passwords.hash,
      newSessionId: secret,
      now,
    }),
    ...joinWork({
      register: registerAffiliate({
        affiliates: ports.affiliates,
        apps: ports.apps,
        plans: ports.plans,
        hashPassword: passwords.hash,
        newId: newAffiliateId,
        now,
        log: logger,
      }),
      attempts: ports.attempts,
      now,
    }),
    ...unsubscribeWork({ profiles: ports.profiles, writer: ports.writer, now }),
  };

  // An application's unsubscribe key never changes once made (domain/unsubscribe-token.ts), so a container keeps what it read.
  const keys = new Map<string, string>();
  const unsubscribeKey = async (appId: string): Promise<string | undefined> => {
    const held = keys.get(appId);
    if (held !== undefined) return held;
    const key = await ports.secrets.get(unsubscribeKeyName(appId));
    if (key !== undefined) {
      if (keys.size >= 1000) keys.clear();
      keys.set(appId, key);
    }
    return key;
  };

  const handlerOf = (route: PortalRoute): RouteHandler => {
    const chain = middy<ApiEvent, ApiResult, Error, PortalContext>()
      .before(() => logger.appendKeys({ route: route.id }))
      .use(checksOf(route, { apps: ports.apps, current, unsubscribeKey }));
    switch (route.access) {
      case 'anyone':
        return chain.handler(async (_event, context) => work[route.id](visitOf(context)));
      case 'session-holder':
        return chain.handler(async (_event, context) => work[route.id](sessionVisitOf(context)));
      case 'signed-in':
        return chain.handler(async (_event, context) => work[route.id](signedInVisitOf(context)));
      case 'unsubscribe-token':
        return chain.handler(async (_event, context) => work[route.id](unsubscribeVisitOf(context)));
    }
  };

  return portalChain().handler(routeRequests(routes, handlerOf, () => page(404, h(NotFoundPage, { missing: 'page' }))));
}
