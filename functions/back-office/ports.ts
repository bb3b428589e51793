/**
 * The back office: what an operator does to the service (applications, keys,
 * email channels, VAPID keys; reading rejections; affiliates, plans and reports;
 * enterprise users, their roles and the audit log). Plain use
 * cases over the store ports, called by the admin command line (bin/admin.ts),
 * by the local stack's demo application, and by the web back office's
 * operations, so the same code serves the local stack and a deployed one.
 */
import type { FunnelReader, LinkStore } from '../domain/affiliate-program';
import type { AffiliateStore } from '../domain/affiliates';
import type { AppStore, KeyStore } from '../domain/apps';
import type { AuditLog } from '../domain/audit';
import type { EnterpriseUserStore, SignInTokenStore } from '../domain/enterprise';
import type { ChannelStore, SenderStore } from '../domain/channels';
import type { AppMoneyReader, PlayerCountReader } from '../domain/figures';
import type { SecretStore } from '../domain/secrets';
import type { PlanStore } from '../domain/plans';
import type { PayoutStore } from '../domain/payouts';
import type { StatementStore } from '../domain/statements';
import type { StatementLock } from '../domain/deals';
import type { PostbackLog, PostbackSettingsStore } from '../domain/postbacks';
import type { ProfileStore, RejectionLog, TimelineStore } from '../domain/timeline';
import type { FunnelStore, LedgerReader } from '../domain/funnel';
import type { PlayerSearchIndex } from '../domain/player-search';
import type { SentCounts } from '../domain/send-gate';

export interface BackOffice {
  apps: AppStore;
  keys: KeyStore;
  rejections: RejectionLog;
  affiliates: AffiliateStore;
  plans: PlanStore;
  /** The last closed (approved or paid) month of an affiliate: a deal may start in the past only after it. */
  statementLock: StatementLock;
  /** What the funnel consumer keeps: the figures behind reports and commission. */
  funnel: FunnelReader;
  /** The application's players and registrations by day, as the profile consumer counts them (the `figures` table). */
  playerCounts: PlayerCountReader;
  /** The funnel's application-wide day rows: every player's money and FTDs (back-office/figures.ts). */
  appMoney: AppMoneyReader;
  /** Players' timelines: the money events behind a commission line (affiliate trace). */
  timeline: Pick<TimelineStore, 'page'>;
  /** Affiliates' tracking links (back-office/affiliate-links.ts; their names in reports). */
  links: LinkStore;
  /** Monthly statements and adjustments, and affiliates' payout details (back-office/statements.ts). */
  statements: StatementStore;
  payouts: PayoutStore;
  channels: ChannelStore;
  /** Which application may send as which address or domain: assigned by the operator only (back-office/senders.ts). */
  senders: SenderStore;
  /** VAPID private keys and identity secrets: SSM Parameter Store in AWS, a DynamoDB table locally (functions/manifest/secrets.ts). */
  secrets: SecretStore;
  /** Affiliates' postback URLs (on the affiliate item) and delivery logs (funnel table); `allowedHosts`: the operator's development hosts. */
  postbacks: { settings: PostbackSettingsStore; log: Pick<PostbackLog, 'recent'>; allowedHosts?: readonly string[] };
  /** Enterprise users and their roles (back-office/users.ts). */
  users: EnterpriseUserStore;
  /** One-time sign-in tokens: the command line's sign-in links (back-office/portal-link.ts). */
  signInTokens: Pick<SignInTokenStore, 'put'>;
  /** What every state-changing back-office action writes (back-office/audit.ts). */
  audit: AuditLog;
  /** Finding players (back-office/players.ts): the profiles, their id order, the search index, their ledgers. */
  // As players.ts's PlayerPorts has them, spelt out: importing that module from here would make a cycle (players → audit → ports).
  players: {
    directory: { page(appId: string, options: { prefix?: string; limit: number; after?: string }): Promise<{ profileIds: string[]; last?: string }> };
    profiles: Pick<ProfileStore, 'get' | 'getMany'>;
    search: PlayerSearchIndex;
    ledgers: LedgerReader & Pick<FunnelStore, 'ledgers'>;
    /** The send gate's caps counts: what the gate line of a player reads. */
    sentCounts: Pick<SentCounts, 'read'>;
  };
  now?: () => Date;
}

/** The time a use case stamps on what it writes. */
export function nowOf(office: Pick<BackOffice, 'now'>): Date {
  return office.now?.() ?? new Date();
}
