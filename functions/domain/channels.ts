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
