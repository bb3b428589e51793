/**
 * What the campaign figures (11 to 14) share: an application of their own on
 * the bench's local stack (a sender, a channel, a server key, money settings,
 * messaging settings), an email template, players through bulk POST
 * /profiles, the local SES's store read a little at a time, and counters of
 * the calls a process's own AWS clients send.
 */
import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoJourneyStore } from '../../functions/adapters/dynamo-journey-store';
import { DynamoProfileStore } from '../../functions/adapters/dynamo-profile-store';
import { DynamoTemplateStore } from '../../functions/adapters/dynamo-template-store';
import { createApp } from '../../functions/back-office/apps';
import { createJourney, moveJourney } from '../../functions/back-office/journeys';
import { createChannel } from '../../functions/back-office/channels';
import { issueKey } from '../../functions/back-office/keys';
import { setMoneySettings } from '../../functions/back-office/money';
import { assignSender } from '../../functions/back-office/senders';
import { commandLineActor } from '../../functions/domain/audit';
import type { JourneyDefinition } from '../../functions/domain/journeys/definition';
import type { MessagingSettings } from '../../functions/domain/send-gate';
import { partitionKey } from '../../functions/domain/stream-record';
import { tables } from '../../functions/manifest/resources';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { request } from '../support/http';
import { waitFor } from '../support/local-process';
import { storedTemplate, emailTemplate } from '../support/templates';
import type { BenchStack } from './support';

export interface CampaignApp {
  appId: string;
  serverKey: string;
  document: DynamoDBDocumentClient;
}

/** A new application as an operator sets one up for campaigns: Deposit is its deposit event. */
export async function campaignApp(stack: BenchStack, messaging: MessagingSettings): Promise<CampaignApp> {
  const { document } = localClients(stack.endpoints);
  const office = localBackOffice(document);
  const app = await createApp(office, { name: `bench ${randomUUID()}`, portalOrigin: stack.endpoints.base_url });
  await office.apps.update(app.app_id, { messaging });
  await setMoneySettings(office, app.app_id, commandLineActor, { currency: 'EUR', money_events: { Deposit: 'deposit' } });
  const fromEmail = `news@bench-${randomUUID().slice(0, 8)}.example`;
  await assignSender(office, commandLineActor, app.app_id, { email: fromEmail });
  await createChannel(office, commandLineActor, { appId: app.app_id, name: 'News', fromEmail, fromName: 'Bench' });
  const serverKey = (await issueKey(office, app.app_id, commandLineActor, 'server')).key;
  return { appId: app.app_id, serverKey, document };
}

/** An email template of the application, stored as the template store does. */
export async function addEmailTemplate(app: CampaignApp, id: string, subject: string): Promise<void> {
  const template = { ...emailTemplate({ en: { subject, html: '<p>Hi {{ player.first_name | default: "there" }}, a bonus waits.</p>' } }), id };
  await new DynamoTemplateStore(app.document, tables.campaigns.localName).create(storedTemplate(app.appId, template));
}

/** A journey of the application, created and published as an operator does in the console. */
export async function liveJourney(app: CampaignApp, journeyId: string, definition: JourneyDefinition): Promise<void> {
  const ports = {
    journeys: new DynamoJourneyStore(app.document, tables.campaigns.localName),
    templates: new DynamoTemplateStore(app.document, tables.campaigns.localName),
    audit: localBackOffice(app.document).audit,
  };
  await createJourney(ports)(app.appId, commandLineActor, { journey_id: journeyId, name: journeyId, definition });
  await moveJourney(ports)(app.appId, commandLineActor, journeyId, 'publish');
}

/** POST /profiles's largest body (docs/api.md). */
const PROFILES_PER_REQUEST = 500;

/** Players with an address and email consent, through bulk POST /profiles; resolves once the stream has stored them all. */
export async function seedPlayers(stack: BenchStack, app: CampaignApp, ids: string[], attributes: Record<string, unknown> = {}): Promise<void> {
  for (let start = 0; start < ids.length; start += PROFILES_PER_REQUEST) {
    const body = ids.slice(start, start + PROFILES_PER_REQUEST).map((id) => ({
      app_id: app.appId,
      profile_id: id,
      urm_date_time: new Date().toISOString(),
      email: addressOf(id),
      urm_consent_email: true,
      ...attributes,
    }));
    const response = await request(stack.endpoints.base_url, 'POST', '/profiles', { key: app.serverKey, body });
    if (response.status !== 200 || response.body.FailedRecordCount !== 0) throw new Error(`POST /profiles answered ${response.status}`);
  }
  const profiles = new DynamoProfileStore(app.document, tables.profiles.localName);
  // Asks only for those not seen yet: every key on every poll would slow the stack that is storing them.
  let missing = ids.map((id) => partitionKey(app.appId, id));
  await waitFor(
    async () => {
      const found = await profiles.getMany(missing.slice(0, 100), ['pk']);
      missing = missing.filter((pk) => !found.has(pk));
      return missing.length === 0;
    },
    'the players stored',
    Math.max(60_000, ids.length * 20),
  );
}

export const addressOf = (profileId: string) => `${profileId}@example.com`;

/** What the bench reads of a mail in the local SES's store. */
export interface Mail {
  messageId: string;
  subject: string;
  destination: { to: string[] };
  /** Seconds since the epoch. */
  at: number;
}

/**
 * The local SES's store, read from a second before the last mail seen (its
 * `since` is in whole seconds), so a poll costs the stack what is new, not
 * every mail it holds.
 */
export function mailbox(mailUrl: string) {
  const seen = new Map<string, Mail>();
  let since = Math.floor(Date.now() / 1000) - 1;
  return {
    /** Every mail seen so far, new ones read first. */
    async read(): Promise<Map<string, Mail>> {
      const response = await fetch(`${mailUrl}/store?since=${since}`);
      if (response.status !== 200) throw new Error(`the local SES store answered ${response.status}`);
      const { emails } = (await response.json()) as { emails: Mail[] };
      for (const mail of emails) {
        seen.set(mail.messageId, mail);
        since = Math.max(since, mail.at - 1);
      }
      return seen;
    },
  };
}

/** Counts a client's calls by command, and the records of its PutRecords (what the stream bills). */
export function countCalls(client: { middlewareStack: { add: (...args: never[]) => void } }): {
  counts: { calls: number; byCommand: Record<string, number>; records: number; lastAt: number };
  reset(): void;
} {
  const counts = { calls: 0, byCommand: {} as Record<string, number>, records: 0, lastAt: 0 };
  const add = client.middlewareStack.add as unknown as (
    middleware: (next: (args: { input: unknown }) => Promise<unknown>, context: { commandName?: string }) => (args: { input: unknown }) => Promise<unknown>,
    options: { step: string; name: string },
  ) => void;
  add(
    (next, context) => async (args) => {
      const command = context.commandName ?? 'unknown';
      counts.calls++;
      counts.byCommand[command] = (counts.byCommand[command] ?? 0) + 1;
      const records = (args.input as { Records?: unknown[] }).Records;
      if (Array.isArray(records)) counts.records += records.length;
      const output = await next(args);
      counts.lastAt = performance.now();
      return output;
    },
    { step: 'initialize', name: 'benchCallCounter' },
  );
  return {
    counts,
    reset() {
      counts.calls = 0;
      counts.byCommand = {};
      counts.records = 0;
      counts.lastAt = 0;
    },
  };
}
