/** Email ports in memory: an application's channels, and a mailer that keeps what it is given. */
import type { Channel, ChannelStore } from '../../functions/domain/channels';
import type { Mailer, OutgoingMail } from '../../functions/domain/email';

export class MemoryChannelStore implements Pick<ChannelStore, 'get'> {
  readonly channels: Channel[];
  /** Each look-up, as [app_id, channel_id]. */
  readonly lookups: [string, string][] = [];

  constructor(channels: Channel[] = []) {
    this.channels = [...channels];
  }

  async get(appId: string, channelId: string): Promise<Channel | undefined> {
    this.lookups.push([appId, channelId]);
    return this.channels.find((channel) => channel.app_id === appId && channel.channel_id === channelId);
  }
}

/** Answers the message ids it is given, in turn (then `message-<n>`); `refusal`, when set, is thrown instead, as the mail service's. */
export class MemoryMailer implements Mailer {
  readonly sent: OutgoingMail[] = [];
  refusal: Error | undefined;

  constructor(private readonly messageIds: string[] = []) {}

  async send(mail: OutgoingMail): Promise<string> {
    if (this.refusal) throw this.refusal;
    this.sent.push(mail);
    return this.messageIds[this.sent.length - 1] ?? `message-${this.sent.length}`;
  }
}
