/** Email channels: per application, a named sender that send_email refers to by `channel_id`. */
import { randomBytes } from 'node:crypto';

export interface Channel {
  app_id: string;
  channel_id: string;
  name: string;
  /** The default sender: used when a request names none. */
  from_email: string;
  from_name: string;
  /** A disabled channel sends nothing: send_email answers 404 for it. */
  enabled: boolean;
  created_at: string;
  updated_at?: string;
}

export function newChannelId(): string {
  return `ch_${randomBytes(8).toString('hex')}`;
}

export interface ChannelStore {
  create(channel: Channel): Promise<void>;
  /** A channel of this application, read consistently: a disable takes effect at once. */
  get(appId: string, channelId: string): Promise<Channel | undefined>;
  listByApp(appId: string): Promise<Channel[]>;
  /** The updated channel, or undefined when the application has no such channel. */
  setEnabled(appId: string, channelId: string, enabled: boolean, at: Date): Promise<Channel | undefined>;
}
