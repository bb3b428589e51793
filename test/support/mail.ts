/**
 * The local SES (aws-ses-v2-local): what was sent, read back as a person's
 * mail client would show it; and the email ports in memory, for unit tests.
 */
import { expect } from '@jest/globals';
import type { Channel, ChannelStore } from '../../functions/domain/channels';
import type { Mailer, OutgoingMail } from '../../functions/domain/email';
import type { TestStack } from './local-stack';

export interface StoredMail {
  messageId: string;
  from: string;
  replyTo: string[];
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { html?: string; text?: string };
  at: number;
}

export function mailUrl(stack: TestStack): string {
  if (!stack.dev.mail_url) throw new Error('the local stack has no mail_url');
  return stack.dev.mail_url;
}

/** Every mail the local SES holds. */
export async function sentMail(stack: TestStack): Promise<StoredMail[]> {
  const response = await fetch(`${mailUrl(stack)}/store`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { emails: StoredMail[] }).emails;
}

export async function mailWithId(stack: TestStack, messageId: string): Promise<StoredMail | undefined> {
  return (await sentMail(stack)).find((mail) => mail.messageId === messageId);
}

export async function mailWithSubject(stack: TestStack, subject: string): Promise<StoredMail[]> {
  return (await sentMail(stack)).filter((mail) => mail.subject === subject);
}

/** A mailer that keeps what it is given and answers sequential message ids. */
export class RecordingMailer implements Mailer {
  readonly sent: OutgoingMail[] = [];

  async send(mail: OutgoingMail): Promise<string> {
    this.sent.push(mail);
    return `message-${this.sent.length}`;
  }
}

/** An application's email channels in memory, oldest first as the table lists them. */
export class MemoryChannelStore implements ChannelStore {
  readonly channels: Channel[] = [];

  async create(channel: Channel) {
    this.channels.push({ ...channel });
  }

  async get(appId: string, channelId: string) {
    return this.channels.find((channel) => channel.app_id === appId && channel.channel_id === channelId);
  }

  async listByApp(appId: string) {
    return this.channels.filter((channel) => channel.app_id === appId);
  }

  async setEnabled(appId: string, channelId: string, enabled: boolean, at: Date) {
    const channel = await this.get(appId, channelId);
    if (channel) Object.assign(channel, { enabled, updated_at: at.toISOString() });
    return channel;
  }

  async setFromDomain(appId: string, channelId: string, fromEmail: string, fromDomain: string | undefined, at: Date) {
    const channel = await this.get(appId, channelId);
    if (!channel || channel.from_email !== fromEmail) return undefined;
    channel.from_domain = fromDomain;
    channel.updated_at = at.toISOString();
    return channel;
  }
}
