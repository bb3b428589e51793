/**
 * Journeys across a crash: the local stack is killed with SIGKILL right after
 * first deposits arrive (entries and welcome emails in flight), restarted on
 * the same data, then the application's clock is moved two days. Every
 * player gets the welcome email once and the push once: nothing is sent
 * twice, no timer is lost. The timeline (DynamoDB, which survives) is read,
 * not the local SES store (which does not).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { DynamoJourneyStore } from '../../functions/adapters/dynamo-journey-store';
import { DynamoTemplateStore } from '../../functions/adapters/dynamo-template-store';
import { createApp } from '../../functions/back-office/apps';
import { createChannel } from '../../functions/back-office/channels';
import { createJourney, moveJourney } from '../../functions/back-office/journeys';
import { issueKey } from '../../functions/back-office/keys';
import { setMoneySettings } from '../../functions/back-office/money';
import { assignSender } from '../../functions/back-office/senders';
import { commandLineActor } from '../../functions/domain/audit';
import type { MessageTemplate } from '../../functions/domain/templates';
import { tables } from '../../functions/manifest/resources';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { request } from '../support/http';
import { endpointsOf, freePorts, killHard, startLocalProcess, waitFor, type LocalProcess } from '../support/local-process';
import type { TestStack } from '../support/local-stack';
import { welcomeJourney } from '../support/journeys';
import { moveClock } from '../support/send-gate';

const PLAYERS = 6;
const dataDir = mkdtempSync(join(tmpdir(), 'urm-journeys-crash-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

type TimelineEvent = Record<string, unknown> & { attributes: Record<string, unknown> };

describe('a crash in the middle of a journey', () => {
  test('SIGKILL of the local stack, then a restart, sends nothing twice and loses no timer', async () => {
    const env = { ...(await freePorts()), URM_DATA_DIR: dataDir };
    const baseUrl = `http://127.0.0.1:${env.PORT}`;
    let running: LocalProcess = startLocalProcess(env);
    await waitFor(() => running.output().includes('urm local stack ready'), 'the stack', 180_000);
    try {
      const { document } = localClients(endpointsOf(env));
      const office = localBackOffice(document);
      const app = await createApp(office, { name: `journeys crash ${randomUUID()}`, portalOrigin: baseUrl });
      const appId = app.app_id;
      await setMoneySettings(office, appId, commandLineActor, { currency: 'EUR', money_events: { Deposit: 'deposit' } });
      const fromEmail = `news@crash-${randomUUID().slice(0, 8)}.example`;
      await assignSender(office, commandLineActor, appId, { email: fromEmail });
      await createChannel(office, commandLineActor, { appId, name: 'News', fromEmail, fromName: 'Casino News' });
      const serverKey = (await issueKey(office, appId, commandLineActor, 'server')).key;
      const templates = new DynamoTemplateStore(document, tables.campaigns.localName);
      const at = new Date().toISOString();
      for (const template of [
        { id: 'welcome', name: 'Welcome', kind: 'email', default_language: 'en', variants: { en: { subject: 'Welcome', html: '<p>Hi</p>' } } },
        { id: 'come-back', name: 'Come back', kind: 'push', default_language: 'en', variants: { en: { title: 'Come back', body: 'A bonus waits' } } },
      ] as MessageTemplate[])
        await templates.create({ app_id: appId, template, version: 1, archived: false, created_at: at, updated_at: at });
      const ports = { journeys: new DynamoJourneyStore(document, tables.campaigns.localName), templates, audit: office.audit };
      await createJourney(ports)(appId, commandLineActor, { journey_id: 'welcome', name: 'Welcome', definition: welcomeJourney() });
      await moveJourney(ports)(appId, commandLineActor, 'welcome', 'publish');

      const players = Array.from({ length: PLAYERS }, (_, i) => `crash-${i}-${randomUUID().slice(0, 6)}`);
      const send = async (path: string, records: Record<string, unknown>[]) => {
        const response = await request(baseUrl, 'POST', path, { key: serverKey, body: records });
        expect(response.body.FailedRecordCount).toBe(0);
      };
      await send(
        '/profiles',
        players.map((id) => ({ app_id: appId, profile_id: id, urm_date_time: at, email: `${id}@example.com`, urm_consent_email: true })),
      );
      const deposits = players.map((id) => ({ app_id: appId, profile_id: id, event: 'Deposit', amount: 20, urm_insert_id: `dep-${id}`, urm_date_time: at }));
      await send('/events', deposits);
      // Killed while the consumers take the deposits in: some entries and emails done, some not.
      await killHard(running, env);

      running = startLocalProcess(env);
      await waitFor(() => running.output().includes('urm local stack ready'), 'the restart', 180_000);
      const stack = { baseUrl } as TestStack;
      const timeline = async (id: string) =>
        (await request(baseUrl, 'GET', `/profiles/${id}/events?app_id=${appId}&limit=100`, { key: serverKey })).body.events as TimelineEvent[];
      // What a step's send put on the timeline: SES's word about the mail afterwards (delivered, opened…) names the step too.
      const feedback = new Set(['urm_email_delivered', 'urm_email_bounced', 'urm_email_complained', 'urm_email_opened', 'urm_email_clicked']);
      const ofStep = (events: TimelineEvent[], step: string) =>
        events.filter((event) => event.attributes.campaign_step === step && !feedback.has(String(event.event)));
      const allWelcomed = async () => (await Promise.all(players.map(timeline))).every((events) => ofStep(events, 'welcome').length > 0);
      await waitFor(allWelcomed, 'every welcome email after the restart', 60_000);

      await moveClock(stack, appId, 2 * 86_400_000 + 60_000);
      const allLeft = async () => (await Promise.all(players.map(timeline))).every((events) => events.some((event) => event.event === 'urm_journey_exited'));
      await waitFor(allLeft, 'every timer after the restart', 60_000);

      for (const id of players) {
        const events = await timeline(id);
        expect([id, ofStep(events, 'welcome').map((event) => event.event)]).toEqual([id, ['urm_email_sent']]);
        expect([id, ofStep(events, 'nudge').length]).toEqual([id, 1]);
        expect([id, events.filter((event) => event.event === 'urm_journey_entered').length]).toEqual([id, 1]);
      }
    } finally {
      await killHard(running, env);
    }
  }, 600_000);
});
