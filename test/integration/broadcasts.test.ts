/**
 * Broadcasts over HTTP on the local stack, as an operator would run one: a
 * template to a 1,000-player segment where 2 players are self-excluded and 1
 * has left the broadcast's topic sends exactly 997 mails (the local SES's
 * store), none twice, while the stack's sender and extra runs of the same
 * handler in this process overlap; and a broadcast cancelled midway stops:
 * fewer mails than members, none after a run that follows the cancel.
 * Members are arranged in the segments table as the segment engine writes
 * them; the template in the campaigns table as the template store does.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Context, ScheduledEvent } from 'aws-lambda';
import { DynamoBroadcastStore } from '../../functions/adapters/dynamo-broadcast-store';
import { DynamoProfileStore } from '../../functions/adapters/dynamo-profile-store';
import { DynamoTemplateStore } from '../../functions/adapters/dynamo-template-store';
import { createApp } from '../../functions/back-office/apps';
import { createChannel } from '../../functions/back-office/channels';
import { issueKey } from '../../functions/back-office/keys';
import { assignSender } from '../../functions/back-office/senders';
import { commandLineActor } from '../../functions/domain/audit';
import { definitionPk, memberPk, sizeSk } from '../../functions/domain/segments/model';
import type { MessagingSettings } from '../../functions/domain/send-gate';
import { partitionKey } from '../../functions/domain/stream-record';
import { tables } from '../../functions/manifest/resources';
import { functionEnvironment, localBackOffice, localClients } from '../../lib/local/stack';
import { consoleRequest, consoleSignIn, type ConsoleSession } from '../support/console';
import { request } from '../support/http';
import { context } from '../support/lambda';
import { waitFor } from '../support/local-process';
import { testStack, type TestStack } from '../support/local-stack';
import { sentMail } from '../support/mail';
import { storedTemplate, emailTemplate } from '../support/templates';

interface BroadcastApp {
  appId: string;
  serverKey: string;
  session: ConsoleSession;
  subject: string;
}

let stack: TestStack;
type Handler = (event: ScheduledEvent, context: Context) => Promise<{ sent: number }>;
let sender: Handler;

const RG_UNTIL = '2099-01-01T00:00:00Z';

async function newApplication(messaging: MessagingSettings): Promise<BroadcastApp> {
  const db = localClients(stack.endpoints).document;
  const office = localBackOffice(db);
  const app = await createApp(office, { name: `broadcasts ${randomUUID()}`, portalOrigin: stack.baseUrl });
  await office.apps.update(app.app_id, { messaging });
  const fromEmail = `news@bc-${randomUUID().slice(0, 8)}.example`;
  await assignSender(office, commandLineActor, app.app_id, { email: fromEmail });
  await createChannel(office, commandLineActor, { appId: app.app_id, name: 'News', fromEmail, fromName: 'Casino News' });
  const serverKey = (await issueKey(office, app.app_id, commandLineActor, 'server')).key;
  const subject = `Weekend reload ${randomUUID()}`;
  const template = { ...emailTemplate({ en: { subject, html: '<p>Hi {{ player.first_name | default: "there" }}, a reload waits.</p>' } }), id: 'weekend' };
  await new DynamoTemplateStore(db, tables.campaigns.localName).create(storedTemplate(app.app_id, template));
  return { appId: app.app_id, serverKey, session: await consoleSignIn(stack.baseUrl, { appId: app.app_id, serverKey }), subject };
}

/** `count` players through POST /profiles, `special` ones with extra attributes; returns their ids once the stream has stored them all. */
async function players(app: BroadcastApp, count: number, special: Record<number, Record<string, unknown>> = {}): Promise<string[]> {
  const run = randomUUID().slice(0, 6);
  const ids = Array.from({ length: count }, (_, i) => `p-${run}-${String(i).padStart(4, '0')}`);
  for (let start = 0; start < ids.length; start += 250) {
    const body = ids.slice(start, start + 250).map((id, j) => ({
      app_id: app.appId,
      profile_id: id,
      urm_date_time: new Date().toISOString(),
      email: `${id}@example.com`,
      urm_consent_email: true,
      ...special[start + j],
    }));
    const response = await request(stack.baseUrl, 'POST', '/profiles', { key: app.serverKey, body });
    expect(response.body.FailedRecordCount).toBe(0);
  }
  const profiles = new DynamoProfileStore(localClients(stack.endpoints).document, tables.profiles.localName);
  // Asks only for those not seen yet: a thousand keys every poll would slow the stack that is storing them.
  let missing = ids.map((id) => partitionKey(app.appId, id));
  await waitFor(
    async () => {
      const found = await profiles.getMany(missing.slice(0, 200), ['pk']);
      missing = missing.filter((pk) => !found.has(pk));
      return missing.length === 0;
    },
    'the players stored',
    150_000,
  );
  return ids;
}

/** The segment's definition through the console, and its members as the segment engine writes them. */
async function segmentOf(app: BroadcastApp, segmentId: string, ids: string[]) {
  const created = await consoleRequest(stack.baseUrl, app.session, 'POST', '/console/api/segments', {
    segment_id: segmentId,
    name: 'Weekend players',
    condition: { attribute: 'urm_consent_email', op: 'equals', value: true },
  });
  expect(created.status).toBe(201);
  const db = localClients(stack.endpoints).document;
  const TableName = tables.segments.localName;
  for (let start = 0; start < ids.length; start += 50) {
    await Promise.all(
      ids
        .slice(start, start + 50)
        .map((profileId) =>
          db.send(new PutCommand({ TableName, Item: { pk: memberPk(app.appId, segmentId), sk: profileId, entered_at: new Date().toISOString() } })),
        ),
    );
  }
  await db.send(new PutCommand({ TableName, Item: { pk: definitionPk(app.appId), sk: sizeSk(segmentId, 0), n: ids.length } }));
}

const api = (app: BroadcastApp, method: 'GET' | 'POST', path: string, body?: unknown) => consoleRequest(stack.baseUrl, app.session, method, path, body);
const mailsOf = async (app: BroadcastApp) => (await sentMail(stack)).filter((mail) => mail.subject === app.subject);
/** Recipients a run holds (taken, not yet settled): a lease moves a recipient's due time ahead of now. */
const leased = async (app: BroadcastApp, broadcastId: string) => {
  const store = new DynamoBroadcastStore(localClients(stack.endpoints).document, tables.campaigns.localName);
  const due = await store.due(app.appId, broadcastId, new Date(Date.now() + 86_400_000), 1_000);
  return due.filter((recipient) => Date.parse(recipient.dueAt) > Date.now()).length;
};
const broadcastOf = async (app: BroadcastApp, id: string) => (await api(app, 'GET', `/console/api/broadcasts/${id}`)).body.broadcast;
/** A run of the sender in this process, beside the stack's own: overlapping runs. It ends when nothing is left to send (its time is AWS's 70 s and more, for a loaded machine). */
const runHere = () => sender({} as ScheduledEvent, context('SendBroadcastsFunction', 150_000));

beforeAll(async () => {
  stack = await testStack();
  Object.assign(process.env, functionEnvironment(stack.endpoints));
  sender = (await import('../../functions/scheduled/send-broadcasts/handler')).handler as unknown as Handler;
});

describe('a broadcast to a 1,000-player segment', () => {
  test('sends exactly 997 mails: none to the 2 self-excluded players nor to the one who left the topic, and no player twice under overlapping runs', async () => {
    const app = await newApplication({ broadcast_rate: 400, topics: [{ name: 'news', label: 'News' }] });
    const ids = await players(app, 1000, {
      10: { urm_rg_status: 'self_excluded', urm_rg_until: RG_UNTIL },
      500: { urm_rg_status: 'self_excluded', urm_rg_until: RG_UNTIL },
      900: { urm_unsubscribed_topics: ['news'] },
    });
    await segmentOf(app, 'weekend', ids);

    const created = await api(app, 'POST', '/console/api/broadcasts', {
      broadcast_id: 'weekend-reload',
      name: 'Weekend reload',
      template_id: 'weekend',
      segment_id: 'weekend',
      purpose: 'marketing',
      topic: 'news',
      schedule: { kind: 'now' },
    });
    expect(created.status).toBe(201);
    expect(created.body.broadcast).toMatchObject({ status: 'draft', counts: { entered: 0 } });
    const started = await api(app, 'POST', '/console/api/broadcasts/weekend-reload/start');
    // The answer reads the broadcast back: the stack's own sender (every second) may have begun it already.
    expect(['scheduled', 'running']).toContain(started.body.broadcast.status);

    // Two more runs of the same handler overlap the stack's own.
    await Promise.all([runHere(), runHere()]);
    await waitFor(async () => (await broadcastOf(app, 'weekend-reload')).status === 'done', 'the broadcast done', 200_000);

    const mails = await mailsOf(app);
    const recipients = mails.map((mail) => mail.destination.to.join(','));
    expect(mails).toHaveLength(997);
    expect(new Set(recipients).size).toBe(997);
    for (const held of [ids[10], ids[500], ids[900]]) expect(recipients.some((to) => to.includes(held))).toBe(false);
    const broadcast = await broadcastOf(app, 'weekend-reload');
    expect(broadcast.counts).toEqual({ entered: 1000, held_out: 0, sent: 997, suppressed: { rg_status: 2, unsubscribed: 1 }, deferred: 0, failed: 0 });
    expect(broadcast.progress).toEqual({ done: 1000, total: 1000 });
  }, 420_000);
});

describe('control', () => {
  test('a broadcast cancelled midway stops: fewer mails than members, and none after a run that follows the cancel', async () => {
    const rate = 5;
    const app = await newApplication({ broadcast_rate: rate });
    const ids = await players(app, 150);
    await segmentOf(app, 'slow', ids);
    await api(app, 'POST', '/console/api/broadcasts', {
      broadcast_id: 'slow',
      name: 'Slow',
      template_id: 'weekend',
      segment_id: 'slow',
      purpose: 'marketing',
      schedule: { kind: 'now' },
    });
    await api(app, 'POST', '/console/api/broadcasts/slow/start');
    await waitFor(async () => (await mailsOf(app)).length >= 10, 'ten mails', 60_000);

    const cancelled = await api(app, 'POST', '/console/api/broadcasts/slow/cancel');
    const atCancel = (await mailsOf(app)).length;
    // A run that starts after the cancel sees it and takes no one. The stack's run may have been mid-tick: the recipients
    // it took before the cancel are sent and settled, never more. Settled = no recipient held under a lease any more.
    await runHere();
    await waitFor(async () => (await leased(app, 'slow')) === 0, 'the recipients taken before the cancel settled', 60_000);
    const settled = (await mailsOf(app)).length;
    await runHere();

    expect(cancelled.body.broadcast.status).toBe('cancelled');
    expect(settled - atCancel).toBeLessThanOrEqual(rate);
    expect((await mailsOf(app)).length).toBe(settled);
    expect(settled).toBeLessThan(ids.length);
    const again = await api(app, 'POST', '/console/api/broadcasts/slow/resume');
    expect(again.status).toBe(409);
  }, 180_000);

  test('a viewer reads broadcasts but may not create or start one; an unknown segment or template is a 400 naming the field', async () => {
    const app = await newApplication({});
    const viewer = await consoleSignIn(stack.baseUrl, { appId: app.appId, serverKey: app.serverKey }, 'viewer');
    const body = { name: 'Nope', template_id: 'missing', segment_id: 'missing', purpose: 'marketing', schedule: { kind: 'now' } };

    const asViewer = await consoleRequest(stack.baseUrl, viewer, 'POST', '/console/api/broadcasts', body);
    const list = await consoleRequest(stack.baseUrl, viewer, 'GET', '/console/api/broadcasts');
    const invalid = await api(app, 'POST', '/console/api/broadcasts', body);

    expect(asViewer.status).toBe(403);
    expect([list.status, list.body]).toEqual([200, { broadcasts: [] }]);
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual([
      'segment_id names no segment of the application: missing',
      'template_id names no template of the application: missing',
    ]);
  });
});
