/**
 * The DynamoDB stores a function composes its ports from, each on the table
 * its environment names (the variable of functions/manifest/resources.ts; a
 * missing one fails the cold start with its name). One place for the wiring
 * every handler, router and consumer repeats: `makeHandler({ apps: appStore() })`.
 * Plain functions, so a bundle keeps only the stores it calls: package.json
 * marks functions/ free of import side effects, else every bundle would carry
 * every adapter this module imports (and decimal.js with the funnel's).
 */
import type { ResetToken } from '../domain/affiliate-portal';
import type { PortalSession, StoredSignInToken } from '../domain/enterprise';
import { KeyResolver } from '../http/auth';
import { AppOrigins, type OriginPolicy } from '../http/cors';
import { tables } from '../manifest/resources';
import { requireEnv } from '../runtime/config';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { dynamo } from './clients/dynamo';
import { DynamoAffiliateAccounts } from './dynamo-affiliate-accounts';
import { DynamoAffiliateSessionStore } from './dynamo-affiliate-session-store';
import { DynamoAffiliateStore } from './dynamo-affiliate-store';
import { DynamoAppStore } from './dynamo-app-store';
import { DynamoAuditLog } from './dynamo-audit-log';
import { DynamoCampaignResults } from './dynamo-campaign-results';
import { DynamoBroadcastStore } from './dynamo-broadcast-store';
import { DynamoChannelStore } from './dynamo-channel-store';
import { DynamoClickClaims } from './dynamo-click-claims';
import { DynamoDeliveryClaims } from './dynamo-delivery-claims';
import { DynamoEnterpriseUserStore } from './dynamo-enterprise-user-store';
import { DynamoFiguresStore } from './dynamo-figures-store';
import { DynamoFunnelStore } from './dynamo-funnel-store';
import { DynamoSubIdReader } from './dynamo-sub-id-reader';
import { DynamoJourneyStore } from './dynamo-journey-store';
import { DynamoKeyStore } from './dynamo-key-store';
import { DynamoLinkStore } from './dynamo-link-store';
import { DynamoOneTimeTokenStore } from './dynamo-one-time-token-store';
import { DynamoPlanStore } from './dynamo-plan-store';
import { DynamoPayoutStore, DynamoStatementStore } from './dynamo-statement-store';
import { DynamoSegmentStateStore } from './dynamo-segment-state-store';
import { DynamoSegmentStore } from './dynamo-segment-store';
import { DynamoPlayerDirectory } from './dynamo-player-directory';
import { DynamoPlayerSearch } from './dynamo-player-search';
import { DynamoPostbackOutbox, DynamoPostbackSettings } from './dynamo-postback-store';
import { DynamoProfileStore } from './dynamo-profile-store';
import { DynamoRejectionLog } from './dynamo-rejection-log';
import { DynamoDeferredOutbox, DynamoSentCounts } from './dynamo-send-gate';
import { DynamoSenderStore } from './dynamo-sender-store';
import { DynamoSentActions } from './dynamo-sent-actions';
import { DynamoSessionStore } from './dynamo-session-store';
import { DynamoSignInAttempts } from './dynamo-sign-in-attempts';
import { DynamoTemplateStore } from './dynamo-template-store';
import { DynamoTimelineStore } from './dynamo-timeline-store';

const table = (name: keyof typeof tables) => requireEnv(tables[name].envVar);

export const appStore = () => new DynamoAppStore(dynamo, table('apps'));
export const keyStore = () => new DynamoKeyStore(dynamo, table('keys'));
export const auditLog = () => new DynamoAuditLog(dynamo, table('auditLog'));
export const profileStore = () => new DynamoProfileStore(dynamo, table('profiles'));
/** The profile consumer's: a profile coming into being or deleted moves the application's players counter with it. */
export const countingProfileStore = () => new DynamoProfileStore(dynamo, table('profiles'), undefined, table('figures'));
export const figuresStore = () => new DynamoFiguresStore(dynamo, table('figures'));
export const playerDirectory = () => new DynamoPlayerDirectory(dynamo, table('profiles'));
export const playerSearch = () => new DynamoPlayerSearch(dynamo, table('playerSearch'));
export const timelineStore = () => new DynamoTimelineStore(dynamo, table('timeline'));
export const rejectionLog = () => new DynamoRejectionLog(dynamo, table('rejections'));
export const channelStore = () => new DynamoChannelStore(dynamo, table('channels'));
export const senderStore = () => new DynamoSenderStore(dynamo, table('senders'));
export const linkStore = () => new DynamoLinkStore(dynamo, table('links'));
export const funnelStore = () => new DynamoFunnelStore(dynamo, table('funnel'));
// The programme view's sub-id rows (functions/back-office/programme.ts).
export const subIdReader = () => new DynamoSubIdReader(dynamo, table('funnel'));
export const postbackOutbox = () => new DynamoPostbackOutbox(dynamo, table('funnel'));
export const affiliateStore = () => new DynamoAffiliateStore(dynamo, table('affiliates'));
export const affiliateAccounts = () => new DynamoAffiliateAccounts(dynamo, table('affiliates'));
export const planStore = () => new DynamoPlanStore(dynamo, table('affiliates'));
export const statementStore = () => new DynamoStatementStore(dynamo, table('affiliates'));
export const payoutStore = () => new DynamoPayoutStore(dynamo, table('affiliates'));
/** The months a deal may no longer start in: those of approved statements (the statement store answers). */
export const statementLock = () => statementStore();
export const segmentStore = () => new DynamoSegmentStore(dynamo, table('segments'));
export const segmentStateStore = () => new DynamoSegmentStateStore(dynamo, table('segments'));
export const postbackSettings = () => new DynamoPostbackSettings(dynamo, table('affiliates'));
export const affiliateSessionStore = () => new DynamoAffiliateSessionStore(dynamo, table('affiliateSessions'));
export const signInAttempts = () => new DynamoSignInAttempts(dynamo, table('signInAttempts'));
export const resetTokenStore = () => new DynamoOneTimeTokenStore<ResetToken>(dynamo, table('resetTokens'));
export const enterpriseUserStore = () => new DynamoEnterpriseUserStore(dynamo, table('enterpriseUsers'));
export const portalSessionStore = () => new DynamoSessionStore<PortalSession>(dynamo, table('portalSessions'));
export const signInTokenStore = () => new DynamoOneTimeTokenStore<StoredSignInToken>(dynamo, table('signInTokens'));
export const sentActions = () => new DynamoSentActions(dynamo, table('pushDeliveries'));
export const deliveryClaims = () => new DynamoDeliveryClaims(dynamo, table('pushDeliveries'));
export const sentCounts = () => new DynamoSentCounts(dynamo, table('sendGate'));
export const deferredOutbox = () => new DynamoDeferredOutbox(dynamo, table('sendGate'));
export const clickClaims = () => new DynamoClickClaims(dynamo, table('clickClaims'));
export const templateStore = () => new DynamoTemplateStore(dynamo, table('campaigns'));
/** The low-level client: campaign money is exact DynamoDB numbers, read back as text. */
export const campaignResultsStore = () => new DynamoCampaignResults(new DynamoDBClient({}), table('campaigns'));
export const journeyStore = () => new DynamoJourneyStore(dynamo, table('campaigns'));
export const broadcastStore = () => new DynamoBroadcastStore(dynamo, table('campaigns'));

let sharedKeys: KeyResolver | undefined;
/** The container's key resolver (and its cache), made on first use: one for every operation the container runs. */
export const keyResolver = (): KeyResolver => (sharedKeys ??= new KeyResolver(keyStore()));

let sharedOrigins: OriginPolicy | undefined;
/** The container's site origins of applications (and their cache), made on first use. */
export const appOrigins = (): OriginPolicy => (sharedOrigins ??= new AppOrigins(appStore()));

/**
 * What an affiliate's report reads (back-office/affiliate-report.ts `ReportPorts`): the one composition of
 * GET /api/affiliates/{affiliate_id}/report, the console's report and CSV, and the portal's dashboard and CSV.
 */
export const reportStores = () => ({ apps: appStore(), affiliates: affiliateStore(), plans: planStore(), funnel: funnelStore(), links: linkStore() });
