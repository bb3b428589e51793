/**
 * POST /api/send_template over HTTP on the local stack, as an integrator
 * calls it: a transactional template by id with data lands in the local mail
 * store rendered, marketing to a self-excluded player is refused and the
 * refusal is on the timeline, a retried call sends once; and a webhook
 * template reaches a receiver on 127.0.0.1, signed with the application's
 * webhook secret (made with the command line), once.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { DynamoTemplateStore } from '../../functions/adapters/dynamo-template-store';
import { createApp } from '../../functions/back-office/apps';
import { createChannel } from '../../functions/back-office/channels';
import { issueKey } from '../../functions/back-office/keys';
import { assignSender } from '../../functions/back-office/senders';
import { commandLineActor } from '../../functions/domain/audit';
import type { MessageTemplate } from '../../functions/domain/templates';
import { tables } from '../../functions/manifest/resources';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { adminInProcess } from '../support/admin-in-process';
import { request } from '../support/http';
import { waitFor } from '../support/local-process';
import { testStack, type TestStack } from '../support/local-stack';
import { sentMail } from '../support/mail';
import { emailTemplate, storedTemplate, webhookTemplate } from '../support/templates';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let stack: TestStack;
let appId: string;
let serverKey: string;
let commsKey: string;
let webhookSecret: string;
let receiver: Server;
const received: Received[] = [];

async function saveTemplate(template: MessageTemplate): Promise<void> {
  const store = new DynamoTemplateStore(localClients(stack.endpoints).document, tables.campaigns.localName);
  expect(await store.create(storedTemplate(appId, template, new Date().toISOString()))).toBe(true);
}

/** A player made through POST /profiles, once the stream applied it. */
async function player(attributes: Record<string, unknown>): Promise<{ id: string; address: string }> {
  const id = `player-${randomUUID().slice(0, 8)}`;
  const address = `${id}@example.com`;
  const written = await request(stack.baseUrl, 'POST', '/profiles', {
    key: serverKey,
    body: [{ app_id: appId, profile_id: id, urm_date_time: new Date().toISOString(), email: address, first_name: 'Ann', ...attributes }],
  });
  expect(written.body.FailedRecordCount).toBe(0);
  await waitFor(async () => (await request(stack.baseUrl, 'GET', `/profiles/${id}?app_id=${appId}`, { key: serverKey })).status === 200, 'the player', 15_000);
  return { id, address };
}

const sendTemplate = (body: Record<string, unknown>) =>
  request(stack.baseUrl, 'POST', '/api/send_template', { key: commsKey, body: { app_id: appId, ...body } });

const mailTo = async (address: string) => (await sentMail(stack)).filter((mail) => mail.destination.to.some((to) => to.includes(address)));

async function timeline(profileId: string, event: string): Promise<Record<string, unknown>[]> {
  const page = await request(stack.baseUrl, 'GET', `/profiles/${profileId}/events?app_id=${appId}&limit=100`, { key: serverKey });
  return (page.body.events as { event: string; attributes: Record<string, unknown> }[]).filter((e) => e.event === event).map((e) => e.attributes);
}

async function eventually<T>(read: () => Promise<T[]>, what: string, count = 1): Promise<T[]> {
  let last: T[] = [];
  await waitFor(
    async () => {
      last = await read();
      return last.length >= count;
    },
    what,
    20_000,
  );
  return last;
}

beforeAll(async () => {
  stack = await testStack();
  const office = localBackOffice(localClients(stack.endpoints).document);
  const app = await createApp(office, { name: `templates ${randomUUID()}`, portalOrigin: stack.baseUrl });
  appId = app.app_id;
  const fromEmail = `news@tpl-${randomUUID().slice(0, 8)}.example`;
  await assignSender(office, commandLineActor, appId, { email: fromEmail });
  await createChannel(office, commandLineActor, { appId, name: 'Receipts', fromEmail, fromName: 'Lucky Casino' });
  serverKey = (await issueKey(office, appId, commandLineActor, 'server')).key;
  commsKey = (await issueKey(office, appId, commandLineActor, 'comms')).key;
  webhookSecret = (JSON.parse(await adminInProcess(stack.dataDir, '--json', 'app', 'webhook-secret', '--app', appId)) as { webhook_secret: string })
    .webhook_secret;

  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;

  await saveTemplate({
    ...emailTemplate({
      en: {
        subject: 'Your deposit of {{ event.amount }} EUR',
        html: '<p>Thanks, {{ player.first_name | default: "there" }}: {{ event.amount }} EUR is in.</p>',
      },
    }),
    id: 'deposit-receipt',
  });
  await saveTemplate({
    ...webhookTemplate('{"player": "{{ player.first_name }}", "amount": "{{ event.amount }}"}', `http://127.0.0.1:${port}/hook`),
    id: 'crm-hook',
  });
});

afterAll(async () => {
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

describe('POST /api/send_template', () => {
  test('a transactional template by id, with data, lands in the mail store rendered for the player', async () => {
    const { id, address } = await player({});

    const response = await sendTemplate({ profile_id: id, template_id: 'deposit-receipt', purpose: 'transactional', data: { amount: '25.50' } });

    expect(response.status).toBe(200);
    const [mail] = await eventually(() => mailTo(address), 'the receipt');
    expect(mail.messageId).toBe(response.body.message_id);
    expect(mail.subject).toBe('Your deposit of 25.50 EUR');
    expect(mail.body.html).toContain('Thanks, Ann: 25.50 EUR is in.');
    const [sent] = await eventually(() => timeline(id, 'urm_email_sent'), 'urm_email_sent');
    expect(sent).toMatchObject({ template_id: 'deposit-receipt', purpose: 'transactional' });
  });

  test('marketing to a self-excluded player is refused, nothing is sent, and the refusal is on the timeline', async () => {
    const { id, address } = await player({ urm_consent_email: true, urm_rg_status: 'self_excluded', urm_rg_until: '2099-01-01T00:00:00Z' });

    const response = await sendTemplate({ profile_id: id, template_id: 'deposit-receipt', purpose: 'marketing', data: { amount: '10' } });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ suppressed: 'rg_status', detail: 'self-excluded until 2099-01-01' });
    const [refusal] = await eventually(() => timeline(id, 'urm_message_suppressed'), 'the refusal');
    expect(refusal).toMatchObject({ channel: 'email', reason: 'rg_status', template_id: 'deposit-receipt' });
    expect(await mailTo(address)).toEqual([]);
  });

  test('a retried call sends once: the same idempotency key answers 409 the second time', async () => {
    const { id, address } = await player({});
    const body = { profile_id: id, template_id: 'deposit-receipt', purpose: 'transactional', data: { amount: '42' }, idempotency_key: `deposit-${id}` };

    const first = await sendTemplate(body);
    const retried = await sendTemplate(body);

    expect(first.status).toBe(200);
    expect(retried.status).toBe(409);
    await eventually(() => timeline(id, 'urm_email_sent'), 'urm_email_sent');
    expect(await mailTo(address)).toHaveLength(1);
  });

  test('an unknown template and an unknown player answer 404', async () => {
    const { id } = await player({});

    const noTemplate = await sendTemplate({ profile_id: id, template_id: 'no-such-template', purpose: 'transactional' });
    const noPlayer = await sendTemplate({ profile_id: `never-${id}`, template_id: 'deposit-receipt', purpose: 'transactional' });

    expect([noTemplate.status, noTemplate.body]).toEqual([404, { message: 'template not found' }]);
    expect([noPlayer.status, noPlayer.body]).toEqual([404, { message: 'profile not found' }]);
  });

  test("a webhook template posts its rendered JSON to the receiver once, signed with the application's webhook secret", async () => {
    const { id } = await player({ urm_consent_email: true });
    const before = received.length;
    const body = { profile_id: id, template_id: 'crm-hook', purpose: 'marketing', data: { amount: '99.90' }, idempotency_key: `hook-${id}` };

    const response = await sendTemplate(body);
    const again = await sendTemplate(body);

    expect(response.status).toBe(200);
    expect(again.status).toBe(409);
    const mine = received.slice(before);
    expect(mine).toHaveLength(1);
    expect(JSON.parse(mine[0].body)).toEqual({ player: 'Ann', amount: '99.90' });
    expect(mine[0].headers['x-urm-message-id']).toBe(response.body.message_id);
    const timestamp = String(mine[0].headers['x-urm-timestamp']);
    expect(mine[0].headers['x-urm-signature']).toBe(`sha256=${createHmac('sha256', webhookSecret).update(`${timestamp}.${mine[0].body}`).digest('hex')}`);
    const [sent] = await eventually(() => timeline(id, 'urm_webhook_sent'), 'urm_webhook_sent');
    expect(sent).toMatchObject({ status_code: 204, host: '127.0.0.1', template_id: 'crm-hook', message_id: response.body.message_id });
  });

  test('a marketing webhook about a self-excluded player does not fire', async () => {
    const { id } = await player({ urm_consent_email: true, urm_rg_status: 'self_excluded' });
    const before = received.length;

    const response = await sendTemplate({ profile_id: id, template_id: 'crm-hook', purpose: 'marketing', data: { amount: '5' } });

    expect(response.body).toEqual({ suppressed: 'rg_status', detail: 'self-excluded' });
    const [refusal] = await eventually(() => timeline(id, 'urm_message_suppressed'), 'the refusal');
    expect(refusal).toMatchObject({ channel: 'webhook', reason: 'rg_status' });
    expect(received.length).toBe(before);
  });
});
