/** Email channels: the default senders send_email refers to by channel id, enabled or not. */
import { newChannelId, type Channel } from '../domain/channels';
import { displayNameSchema, emailAddressSchema, emailLimits } from '../domain/email';
import { NotFound, ValidationError } from '../domain/errors';
import { compileValidator } from '../domain/validation';
import { requireApp } from './apps';
import { nowOf, type BackOffice } from './ports';

// The same rules as send_email's own sender fields: a channel's defaults always make a valid sender.
const checkFromEmail = compileValidator<string>(emailAddressSchema, 'from email');
const checkFromName = compileValidator<string>(displayNameSchema, 'from name');

/** Creates an enabled email channel: send_email refers to it by its id. */
export async function createChannel(
  office: BackOffice,
  input: { appId: string; name: string; fromEmail: string; fromName: string },
): Promise<Channel> {
  await requireApp(office, input.appId);
  const name = input.name.trim();
  if (name.length === 0 || name.length > emailLimits.channelNameLength) {
    throw new ValidationError([`name must be 1 to ${emailLimits.channelNameLength} characters`], 'name is invalid');
  }
  const channel: Channel = {
    app_id: input.appId,
    channel_id: newChannelId(),
    name,
    from_email: checkFromEmail(input.fromEmail.trim()),
    from_name: checkFromName(input.fromName),
    enabled: true,
    created_at: nowOf(office).toISOString(),
  };
  await office.channels.create(channel);
  return channel;
}

export async function listChannels(office: BackOffice, appId: string): Promise<Channel[]> {
  await requireApp(office, appId);
  return office.channels.listByApp(appId);
}

/** Enables or disables a channel; send_email answers 404 for a disabled one from the next request on. */
export async function setChannelEnabled(office: BackOffice, appId: string, channelId: string, enabled: boolean): Promise<Channel> {
  await requireApp(office, appId);
  const channel = await office.channels.setEnabled(appId, channelId, enabled, nowOf(office));
  if (!channel) throw new NotFound(`application ${appId} has no channel ${channelId}`);
  return channel;
}
