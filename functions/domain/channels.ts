/** Email channels: per application, a named sender that send_email refers to by `channel_id`. */
import { randomBytes } from 'node:crypto';
import { addressDomain, canonicalAddress } from './email';

export interface Channel {
  app_id: string;
  channel_id: string;
  name: string;
  /** The default sender: used when a request names none. */
  from_email: string;
  from_name: string;
  /**
   * When set, any address at this domain may be the sender, not only
   * `from_email`. Always the domain of `from_email`, in lower case: a channel
   * never speaks for a domain its own address is not at.
   */
  from_domain?: string;
  /** A disabled channel sends nothing: send_email answers 404 for it. */
  enabled: boolean;
  created_at: string;
  updated_at?: string;
}

export function newChannelId(): string {
  return `ch_${randomBytes(8).toString('hex')}`;
}

/** The channel a template without its own sends from: the application's oldest enabled one (ties by id). */
export function firstEnabledChannel(channels: readonly Channel[]): Channel | undefined {
  return channels.filter((channel) => channel.enabled).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.channel_id.localeCompare(b.channel_id))[0];
}

/** Whether `address` may be a channel's sender: its own address, or any address at the domain it names. */
export function channelMaySendAs(channel: Pick<Channel, 'from_email' | 'from_domain'>, address: string): boolean {
  if (canonicalAddress(address) === canonicalAddress(channel.from_email)) return true;
  return channel.from_domain !== undefined && addressDomain(address) === channel.from_domain.toLowerCase();
}

/** What a refused sender is told: the rule of this channel. */
export function channelSenderRule(channel: Pick<Channel, 'from_email' | 'from_domain'>): string {
  return channel.from_domain === undefined
    ? `from_email must be the channel's address (${canonicalAddress(channel.from_email)})`
    : `from_email must be the channel's address or an address at ${channel.from_domain.toLowerCase()}`;
}

/**
 * The domain a channel may name: its address's own, whatever its case
 * (`example.com` for `news@Example.com`); undefined for any other.
 */
export function channelDomainFor(fromEmail: string, domain: string): string | undefined {
  const wanted = domain.trim().toLowerCase();
  return wanted === addressDomain(fromEmail) ? wanted : undefined;
}

export interface ChannelStore {
  create(channel: Channel): Promise<void>;
  /** A channel of this application, read consistently: a disable takes effect at once. */
  get(appId: string, channelId: string): Promise<Channel | undefined>;
  listByApp(appId: string): Promise<Channel[]>;
  /** The updated channel, or undefined when the application has no such channel. */
  setEnabled(appId: string, channelId: string, enabled: boolean, at: Date): Promise<Channel | undefined>;
  /**
   * Sets (or, with undefined, removes) the channel's `from_domain`, only while
   * its `from_email` is still `fromEmail`; undefined when there is no such channel.
   */
  setFromDomain(appId: string, channelId: string, fromEmail: string, fromDomain: string | undefined, at: Date): Promise<Channel | undefined>;
}

/**
 * A sender the operator assigned to an application (docs/api.md, "Senders"):
 * one address, or every address at a domain. Channels may only be made with
 * the application's senders, and every send checks the claim again.
 */
export interface SenderAssignment {
  app_id: string;
  /** The address or the domain, trimmed and in lower case: one claim however it is spelt. */
  sender: string;
  kind: 'address' | 'domain';
  assigned_at: string;
}

/** Which applications hold an address: through the address itself, and through its domain. */
export interface SenderHolders {
  address?: string;
  domain?: string;
}

/** A claim's outcome: made, already this application's, or held by another application (`by`). */
export type SenderClaim = { outcome: 'assigned' | 'unchanged'; assignment: SenderAssignment } | { outcome: 'taken'; by: SenderAssignment };

export interface SenderStore {
  /**
   * Claims the sender for its application, atomically: never an address or a
   * domain another application holds, never a domain with another
   * application's address at it, never an address at another application's domain.
   */
  claim(assignment: SenderAssignment): Promise<SenderClaim>;
  /** Gives up the application's claim on `sender` (a senderKey); false when the application does not hold it. */
  release(appId: string, sender: string): Promise<boolean>;
  /** The application's senders, by sender. */
  listByApp(appId: string): Promise<SenderAssignment[]>;
  /** Every application's senders, by sender: what the operator reviews. */
  list(): Promise<SenderAssignment[]>;
  /** Who holds the address and its domain, read consistently: a release holds from the next send. */
  holders(address: string): Promise<SenderHolders>;
}

/** How a sender is claimed: trimmed and in lower case, so `News@Casino.example` and `news@casino.example` are one. */
export function senderKey(sender: string): string {
  return sender.trim().toLowerCase();
}

/** The domain a sender (a senderKey) is at: an address's, or the domain itself. */
export function senderDomain(sender: string): string {
  return sender.slice(sender.lastIndexOf('@') + 1);
}

/**
 * The claim in the way of `wanted`, among the claims at its domain: the same
 * sender held by another application; for an address, its domain held by
 * another; for a domain, an address at it held by another.
 */
export function claimBlocker(
  claimsAtDomain: readonly SenderAssignment[],
  wanted: Pick<SenderAssignment, 'app_id' | 'sender' | 'kind'>,
): SenderAssignment | undefined {
  return claimsAtDomain.find(
    (held) =>
      held.app_id !== wanted.app_id &&
      senderDomain(held.sender) === senderDomain(wanted.sender) &&
      (held.sender === wanted.sender || held.kind === 'domain' || wanted.kind === 'domain'),
  );
}

/** Whether the application may send as an address: the address's own claim decides, else its domain's. */
export function senderHeldBy(holders: SenderHolders, appId: string): boolean {
  return holders.address !== undefined ? holders.address === appId : holders.domain === appId;
}
