/**
 * Email channels: the default senders send_email refers to by channel id,
 * enabled or not, made only with the senders the operator assigned to the
 * application (back-office/senders.ts).
 */
import { channelDomainFor, newChannelId, senderHeldBy, type Channel } from '../domain/channels';
import { addressDomain, canonicalAddress, displayNameSchema, emailAddressSchema, emailLimits } from '../domain/email';
import { NotFound, ValidationError } from '../domain/errors';
import { compileValidator } from '../domain/validation';
import { requireApp } from './apps';
import type { AuditActor } from '../domain/audit';
import { audit } from './audit';
import { nowOf, type BackOffice } from './ports';

// The same rules as send_email's own sender fields: a channel's defaults always make a valid sender.
const checkFromEmail = compileValidator(emailAddressSchema, 'from email');
const checkFromName = compileValidator(displayNameSchema, 'from name');

/** The domain a channel may send from: its own address's, or a 400 naming the one it could be. */
function checkDomain(fromEmail: string, domain: string): string {
  const checked = channelDomainFor(fromEmail, domain);
  if (checked === undefined) {
    throw new ValidationError([`domain must be ${addressDomain(fromEmail)}, the domain of the channel's from email`], 'domain is invalid');
  }
  return checked;
}

type ChannelPorts = Pick<BackOffice, 'apps' | 'channels' | 'senders' | 'audit' | 'now'>;

const assignedBy = 'the operator assigns senders: npm run admin -- sender assign';

/** 400 naming from_email unless the application holds the address (itself, or its domain). */
async function requireAssignedAddress(office: Pick<BackOffice, 'senders'>, appId: string, fromEmail: string): Promise<void> {
  if (senderHeldBy(await office.senders.holders(fromEmail), appId)) return;
  throw new ValidationError([`from_email must be a sender assigned to the application: ${fromEmail} is not (${assignedBy})`], 'from_email is invalid');
}

/** 400 naming from_domain unless the application holds the whole domain: an address at it is not enough. */
async function requireAssignedDomain(office: Pick<BackOffice, 'senders'>, appId: string, domain: string): Promise<void> {
  // Any address at the domain tells who holds the domain itself.
  if ((await office.senders.holders(`postmaster@${domain}`)).domain === appId) return;
  throw new ValidationError([`from_domain must be a domain assigned to the application: ${domain} is not (${assignedBy})`], 'from_domain is invalid');
}

/**
 * Creates an enabled email channel: send_email refers to it by its id. With
 * `fromDomain` (the domain of `fromEmail`, nothing else), any address at that
 * domain may be a sender of the channel, not only `fromEmail`. The
 * application must hold `fromEmail` (the address, or its domain) and, for
 * `fromDomain`, the domain itself: a 400 naming the field otherwise. Audited
 * as `channel.created`.
 */
export async function createChannel(
  office: ChannelPorts,
  actor: AuditActor,
  input: { appId: string; name: string; fromEmail: string; fromName: string; fromDomain?: string },
): Promise<Channel> {
  await requireApp(office, input.appId);
  const name = input.name.trim();
  if (name.length === 0 || name.length > emailLimits.channelNameLength) {
    throw new ValidationError([`name must be 1 to ${emailLimits.channelNameLength} characters`], 'name is invalid');
  }
  // The domain in lower case: the form send_email sends and the AWS grant matches.
  const fromEmail = canonicalAddress(checkFromEmail(input.fromEmail.trim()));
  const channel: Channel = {
    app_id: input.appId,
    channel_id: newChannelId(),
    name,
    from_email: fromEmail,
    from_name: checkFromName(input.fromName),
    ...(input.fromDomain === undefined ? {} : { from_domain: checkDomain(fromEmail, input.fromDomain) }),
    enabled: true,
    created_at: nowOf(office).toISOString(),
  };
  await requireAssignedAddress(office, channel.app_id, fromEmail);
  if (channel.from_domain !== undefined) await requireAssignedDomain(office, channel.app_id, channel.from_domain);
  await office.channels.create(channel);
  await audit(office)({
    appId: channel.app_id,
    actor,
    action: 'channel.created',
    target: `channel:${channel.channel_id}`,
    details: { name: channel.name, from_email: channel.from_email, from_name: channel.from_name, from_domain: channel.from_domain ?? null },
  });
  return channel;
}

export async function listChannels(office: Pick<BackOffice, 'apps' | 'channels'>, appId: string): Promise<Channel[]> {
  await requireApp(office, appId);
  return office.channels.listByApp(appId);
}

/**
 * Enables or disables a channel; send_email answers 404 for a disabled one
 * from the next request on. Audited as `channel.enabled` or `channel.disabled`.
 */
export async function setChannelEnabled(office: ChannelPorts, appId: string, actor: AuditActor, channelId: string, enabled: boolean): Promise<Channel> {
  await requireApp(office, appId);
  const channel = await office.channels.setEnabled(appId, channelId, enabled, nowOf(office));
  if (!channel) throw new NotFound(`application ${appId} has no channel ${channelId}`);
  await audit(office)({ appId, actor, action: enabled ? 'channel.enabled' : 'channel.disabled', target: `channel:${channelId}` });
  return channel;
}

/**
 * Lets a channel send from any address at its own address's domain
 * (`domain`, which the application must hold: a 400 naming from_domain
 * otherwise), or, with undefined, from its address only again. Takes effect
 * from the next request. Audited as `channel.domain_changed` (`{from, to}`,
 * null for the address only).
 */
export async function setChannelDomain(
  office: ChannelPorts,
  appId: string,
  actor: AuditActor,
  channelId: string,
  domain: string | undefined,
): Promise<Channel> {
  await requireApp(office, appId);
  const channel = await office.channels.get(appId, channelId);
  if (!channel) throw new NotFound(`application ${appId} has no channel ${channelId}`);
  const fromDomain = domain === undefined ? undefined : checkDomain(channel.from_email, domain);
  // Narrowing to the address alone needs no check: every send checks the address anyway.
  if (fromDomain !== undefined) await requireAssignedDomain(office, appId, fromDomain);
  const updated = await office.channels.setFromDomain(appId, channelId, channel.from_email, fromDomain, nowOf(office));
  if (!updated) throw new NotFound(`application ${appId} has no channel ${channelId}`);
  await audit(office)({
    appId,
    actor,
    action: 'channel.domain_changed',
    target: `channel:${channelId}`,
    details: { from: channel.from_domain ?? null, to: updated.from_domain ?? null },
  });
  return updated;
}
