/**
 * The local SES (aws-ses-v2-local): what was sent, read back as a person's
 * mail client would show it; and the email ports in memory, for unit tests.
 */
import { expect } from '@jest/globals';
import type { TestStack } from './local-stack';

export interface StoredMail {
  messageId: string;
  from: string;
  replyTo: string[];
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { html?: string; text?: string };
  /** The extra header fields of simple content (List-Unsubscribe). */
  headers?: { name: string; value: string }[];
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
