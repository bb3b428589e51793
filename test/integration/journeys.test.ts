/**
 * Journeys on the local stack, as an operator and an integrator meet them:
 * the acceptance journey "first deposit → welcome email now → wait 2 days →
 * if no second deposit, push" defined through the back office, players made
 * and deposits sent through the HTTP API, mail read from the local SES, the
 * application's clock moved through PUT /local/clock; and the trigger
 * operation through HTTP.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { DynamoJourneyStore } from '../../functions/adapters/dynamo-journey-store';
import { DynamoTemplateStore } from '../../functions/adapters/dynamo-template-store';
import { createApp } from '../../functions/back-office/apps';
import { createChannel } from '../../functions/back-office/channels';
import { createJourney, getJourney, moveJourney, type JourneyPorts } from '../../functions/back-office/journeys';
import { issueKey } from '../../functions/back-office/keys';
import { setMoneySettings } from '../../functions/back-office/money';
import { assignSender } from '../../functions/back-office/senders';
import { commandLineActor } from '../../functions/domain/audit';
import type { MessageTemplate } from '../../functions/domain/templates';
import { tables } from '../../functions/manifest/resources';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { request } from '../support/http';
import { waitFor } from '../support/local-process';
import { testStack, type TestStack } from '../support/local-stack';
import { welcomeJourney } from '../support/journeys';
import { sentMail } from '../support/mail';
import { until } from '../support/profiles';
import { moveClock } from '../support/send-gate';

const DAY = 86_400_000;

let stack: TestStack;
let appId: string;
let serverKey: string;
let ports: JourneyPorts;

async function post(path: string, records: Record<string, unknown>[]) {
  const response = await request(stack.baseUrl, 'POST', path, { key: serverKey, body: records });
  expect(response.status).toBe(200);
  expect(response.body.FailedRecordCount).toBe(0);
}

async function player(attributes: Record<string, unknown> = {}): Promise<{ id: string; address: string }> {
  const id = `jny-${randomUUID().slice(0, 8)}`;
  const address = `${id}@example.com`;
  await post('/profiles', [{ app_id: appId, profile_id: id, urm_date_time: new Date().toISOString(), email: address, urm_consent_email: true, ...attributes }]);
  await waitFor(async () => (await request(stack.baseUrl, 'GET', `/profiles/${id}?app_id=${appId}`, { key: serverKey })).status === 200, 'the player', 15_000);
  return { id, address };
}

const deposit = (profileId: string, insertId = randomUUID()) => ({
  app_id: appId,
  profile_id: profileId,
  event: 'Deposit',
  amount: 50,
  currency: 'EUR',
  urm_insert_id: insertId,
  urm_date_time: new Date().toISOString(),
});

async function timeline(profileId: string): Promise<TimelineEvent[]> {
  const page = await request(stack.baseUrl, 'GET', `/profiles/${profileId}/events?app_id=${appId}&limit=100`, { key: serverKey });
  expect(page.status).toBe(200);
  return page.body.events as TimelineEvent[];
}

const mailTo = async (address: string) => (await sentMail(stack)).filter((mail) => mail.destination.to.some((to) => to.includes(address)));
type TimelineEvent = Record<string, unknown> & { attributes: Record<string, unknown> };
const ofStep = (events: TimelineEvent[], step: string) => events.filter((event) => event.attributes.campaign_step === step);
const named = (events: TimelineEvent[], name: string) => events.filter((event) => event.event === name);

beforeAll(async () => {
  stack = await testStack();
  const { document } = localClients(stack.endpoints);
  const office = localBackOffice(document);
  const app = await createApp(office, { name: `journeys ${randomUUID()}`, portalOrigin: stack.baseUrl });
  appId = app.app_id;
  await office.apps.update(appId, { messaging: { time_zone: 'UTC' } });
  await setMoneySettings(office, appId, commandLineActor, { currency: 'EUR', money_events: { Deposit: 'deposit' } });
  const fromEmail = `news@jny-${randomUUID().slice(0, 8)}.example`;
  await assignSender(office, commandLineActor, appId, { email: fromEmail });
  await createChannel(office, commandLineActor, { appId, name: 'News', fromEmail, fromName: 'Casino News' });
  serverKey = (await issueKey(office, appId, commandLineActor, 'server')).key;

  const templates = new DynamoTemplateStore(document, tables.campaigns.localName);
  const at = new Date().toISOString();
  const stored = (template: MessageTemplate) => ({ app_id: appId, template, version: 1, archived: false, created_at: at, updated_at: at });
  await templates.create(
    stored({
      id: 'welcome',
      name: 'Welcome',
      kind: 'email',
      default_language: 'en',
      variants: { en: { subject: 'Welcome aboard', html: '<p>Thanks for your {{ event.amount }} deposit</p>' } },
    }),
  );
  await templates.create(
    stored({ id: 'come-back', name: 'Come back', kind: 'push', default_language: 'en', variants: { en: { title: 'Come back', body: 'A bonus waits' } } }),
  );
  await templates.create(
    stored({
      id: 'vip',
      name: 'VIP',
      kind: 'email',
      default_language: 'en',
      variants: { en: { subject: 'Your code {{ event.code }}', html: '<p>{{ event.code }}</p>' } },
    }),
  );
  ports = { journeys: new DynamoJourneyStore(document, tables.campaigns.localName), templates, audit: office.audit };
  await createJourney(ports)(appId, commandLineActor, { journey_id: 'welcome', name: 'Welcome', definition: welcomeJourney() });
  await moveJourney(ports)(appId, commandLineActor, 'welcome', 'publish');
  await createJourney(ports)(appId, commandLineActor, {
    journey_id: 'vip',
    name: 'VIP',
    definition: { entry: { api: true }, steps: [{ id: 'code', type: 'send', channel: 'email', template_id: 'vip', purpose: 'transactional' }] },
  });
}, 120_000);

afterAll(async () => {
  await moveClock(stack, appId, 0);
});

describe('the welcome journey', () => {
  test('first deposit: one welcome email even when the deposit comes twice; two days on, a push only for the player with no second deposit; a self-excluded player gets nothing', async () => {
    const [lapsed, loyal, excluded] = [await player(), await player(), await player({ urm_rg_status: 'self_excluded', urm_rg_until: '2099-01-01T00:00:00Z' })];
    const firstDeposit = deposit(lapsed.id);
    // The integrator's retry of a batch, and the same record twice in one batch: one insert id.
    await post('/events', [firstDeposit, firstDeposit]);
    await post('/events', [firstDeposit]);
    await post('/events', [deposit(loyal.id)]);
    await post('/events', [deposit(excluded.id)]);

    const welcomed = await until(
      () => mailTo(lapsed.address),
      (mail) => mail.length > 0,
      'the welcome email',
    );
    expect(welcomed.map((mail) => mail.subject)).toEqual(['Welcome aboard']);
    await until(
      () => mailTo(loyal.address),
      (mail) => mail.length > 0,
      "the loyal player's welcome email",
    );
    const refused = await until(
      () => timeline(excluded.id),
      (events) => ofStep(named(events, 'urm_message_suppressed'), 'welcome').length > 0,
      'the suppression on the excluded player timeline',
    );
    expect(ofStep(named(refused, 'urm_message_suppressed'), 'welcome').map((event) => event.attributes)).toEqual([
      expect.objectContaining({ campaign: 'journey:welcome', reason: 'rg_status' }),
    ]);
    // The loyal player's second deposit: the goal, they leave converted.
    await post('/events', [deposit(loyal.id)]);
    await until(
      () => timeline(loyal.id),
      (events) => named(events, 'urm_journey_converted').length > 0,
      'the conversion',
    );
    expect((await getJourney(ports)(appId, 'welcome')).occupancy).toEqual([{ version: 1, step_id: 'wait-2d', players: 2 }]);

    await moveClock(stack, appId, 2 * DAY + 60_000);

    const lapsedEvents = await until(
      () => timeline(lapsed.id),
      (events) => named(events, 'urm_journey_exited').length > 0,
      'the lapsed player leaving the journey after the push',
      30_000,
    );
    const excludedEvents = await until(
      () => timeline(excluded.id),
      (events) => named(events, 'urm_journey_exited').length > 0,
      'the excluded player leaving',
    );
    expect(ofStep(lapsedEvents, 'nudge').length).toBe(1);
    expect(named(lapsedEvents, 'urm_journey_entered')).toHaveLength(1);
    expect(ofStep(await timeline(loyal.id), 'nudge')).toEqual([]);
    expect(ofStep(excludedEvents, 'nudge').map((event) => [event.event, event.attributes.reason])).toEqual([['urm_message_suppressed', 'rg_status']]);
    expect(await mailTo(lapsed.address)).toHaveLength(1);
    expect(await mailTo(excluded.address)).toEqual([]);
    expect((await getJourney(ports)(appId, 'welcome')).occupancy).toEqual([]);
  });
});

describe('POST /api/journeys/{journey_id}/trigger', () => {
  test('enters the player once per insert_id, with the data for the template', async () => {
    const { id, address } = await player();
    const body = { app_id: appId, profile_id: id, data: { code: 'VIP50' }, insert_id: `crm-${randomUUID()}` };

    const refused = await request(stack.baseUrl, 'POST', '/api/journeys/vip/trigger', { key: serverKey, body });
    await moveJourney(ports)(appId, commandLineActor, 'vip', 'publish');
    const first = await request(stack.baseUrl, 'POST', '/api/journeys/vip/trigger', { key: serverKey, body });
    const again = await request(stack.baseUrl, 'POST', '/api/journeys/vip/trigger', { key: serverKey, body });

    expect(refused.status).toBe(409);
    expect([first.status, again.status]).toEqual([200, 200]);
    const mail = await until(
      () => mailTo(address),
      (found) => found.length > 0,
      'the VIP mail',
    );
    expect(mail.map((found) => found.subject)).toEqual(['Your code VIP50']);
    await until(
      () => timeline(id),
      (events) => named(events, 'urm_journey_exited').length > 0,
      'the VIP journey ending',
    );
    expect(named(await timeline(id), 'urm_journey_entered')).toHaveLength(1);
  });

  test('answers 404 for an unknown journey and 409 for one entered otherwise', async () => {
    const body = { app_id: appId, profile_id: 'anyone' };

    const unknown = await request(stack.baseUrl, 'POST', '/api/journeys/no-such/trigger', { key: serverKey, body });
    const byEvent = await request(stack.baseUrl, 'POST', '/api/journeys/welcome/trigger', { key: serverKey, body });

    expect([unknown.status, byEvent.status]).toEqual([404, 409]);
  });
});
