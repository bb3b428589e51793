/**
 * Opens and clicks of a campaign's mail, over HTTP on the local stack as in
 * AWS: the mail goes through urm's mailer with the campaign's tags, the local
 * SES adds the open pixel and tracked links, and fetching them puts
 * urm_email_opened and urm_email_clicked, naming the campaign, on the
 * player's timeline and into the campaign's results (console and CLI).
 */
import { randomUUID } from 'node:crypto';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { DynamoCampaignResults } from '../../functions/adapters/dynamo-campaign-results';
import { SesMailer } from '../../functions/adapters/ses-mailer';
import { tables } from '../../functions/manifest/resources';
import { createApp } from '../../functions/back-office/apps';
import { createChannel } from '../../functions/back-office/channels';
import { issueKey } from '../../functions/back-office/keys';
import { assignSender } from '../../functions/back-office/senders';
import { commandLineActor } from '../../functions/domain/audit';
import type { Channel } from '../../functions/domain/channels';
import { composeMail } from '../../functions/messaging/email';
import { campaignFields } from '../../functions/messaging/send-template';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { adminInProcess } from '../support/admin-in-process';
import { consoleRequest, consoleSignIn, type ConsoleSession } from '../support/console';
import { request } from '../support/http';
import { mailWithId } from '../support/mail';
import { testStack, type TestStack } from '../support/local-stack';
import { until } from '../support/profiles';

let stack: TestStack;
let app: { appId: string; serverKey: string; channel: Channel };
let session: ConsoleSession;
let mailer: SesMailer;
const journeyId = `welcome_${randomUUID().slice(0, 8)}`;
const campaign = { kind: 'journey' as const, id: journeyId, version: 2, step: 'mail_1' };

const readTimeline = async (profileId: string): Promise<{ event: string; attributes: Record<string, unknown> }[]> =>
  (await request(stack.baseUrl, 'GET', `/profiles/${encodeURIComponent(profileId)}/events?app_id=${app.appId}&limit=100`, { key: app.serverKey })).body
    .events ?? [];

const results = () => consoleRequest(stack.baseUrl, session, 'GET', `/console/api/results/journey/${journeyId}`);

/** A campaign's mail to the player, as a journey's send makes it (composeMail with the campaign's tags), through urm's SES mailer. */
async function sendCampaignMail(profileId: string): Promise<string> {
  const mail = composeMail(
    {
      channel_id: app.channel.channel_id,
      to_addresses: [{ email: 'success@simulator.amazonses.com', name: 'Ann' }],
      subject: `Welcome ${randomUUID()}`,
      html_body: '<html><body><p>Your bonus: <a href="https://casino.example/bonus?code=WELCOME&amp;email=ann@example.com">claim it</a></p></body></html>',
    },
    app.channel,
    profileId,
    campaignFields(campaign).tags,
  );
  return mailer.send(mail);
}

beforeAll(async () => {
  stack = await testStack();
  const office = localBackOffice(localClients(stack.endpoints).document);
  const created = await createApp(office, { name: `campaign results ${randomUUID()}`, portalOrigin: stack.baseUrl });
  const fromEmail = `news@casino-${randomUUID().slice(0, 8)}.example`;
  await assignSender(office, commandLineActor, created.app_id, { email: fromEmail });
  const channel = await createChannel(office, commandLineActor, { appId: created.app_id, name: 'News', fromEmail, fromName: 'Casino News' });
  app = { appId: created.app_id, serverKey: (await issueKey(office, created.app_id, commandLineActor, 'server')).key, channel };
  mailer = new SesMailer(
    new SESv2Client({
      endpoint: stack.endpoints.ses_endpoint,
      region: stack.endpoints.region,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  session = await consoleSignIn(stack.baseUrl, app);
}, 60_000);

describe("a campaign's opens and clicks on the local stack", () => {
  test('fetching the pixel and a link puts urm_email_opened and urm_email_clicked with the campaign on the timeline, and counts them', async () => {
    const profileId = `opener-${randomUUID()}`;
    const messageId = await sendCampaignMail(profileId);
    const mail = await until(
      () => mailWithId(stack, messageId),
      (found) => found !== undefined,
      'the mail in the local SES',
    );
    const html = mail!.body.html ?? '';
    const link = /<a href="([^"]+)"/.exec(html)?.[1];
    const pixel = /<img src="([^"]+)"/.exec(html)?.[1];
    expect(link).toMatch(/\/track\/click\//);
    expect(pixel).toMatch(/\/track\/open\/.+\.gif$/);

    const opened = await fetch(pixel!);
    const clicked = await fetch(link!, { redirect: 'manual' });

    expect(opened.status).toBe(200);
    expect(clicked.status).toBe(302);
    expect(clicked.headers.get('location')).toBe('https://casino.example/bonus?code=WELCOME&email=ann@example.com');
    const timeline = await until(
      () => readTimeline(profileId),
      (events) => ['urm_email_delivered', 'urm_email_opened', 'urm_email_clicked'].every((name) => events.some((event) => event.event === name)),
      'the delivery, open and click on the timeline',
    );
    const about = {
      message_id: messageId,
      channel_id: app.channel.channel_id,
      campaign: `journey:${journeyId}`,
      campaign_version: '2',
      campaign_step: 'mail_1',
    };
    expect(timeline.filter((event) => event.event === 'urm_email_opened').map((event) => event.attributes)).toEqual([about]);
    expect(timeline.filter((event) => event.event === 'urm_email_clicked').map((event) => event.attributes)).toEqual([
      { ...about, link: 'https://casino.example/bonus' },
    ]);

    const counted = await until(
      results,
      (response) => response.status === 200 && response.body.results.totals.clicked === 1 && response.body.results.totals.opened === 1,
      'the open and click in the results',
    );
    expect(counted.body.results.steps).toEqual([
      expect.objectContaining({ step: 'mail_1', delivered: 1, opened: 1, opened_unique: 1, clicked: 1, clicked_unique: 1 }),
    ]);
    const printed = JSON.parse(await adminInProcess(stack.dataDir, '--json', 'results', app.appId, 'journey', journeyId));
    expect(printed.totals).toMatchObject({ opened: 1, clicked: 1 });
  });

  test('the tracking address redirects only to links the mail had', async () => {
    const messageId = await sendCampaignMail(`other-${randomUUID()}`);
    const mail = await until(
      () => mailWithId(stack, messageId),
      (found) => found !== undefined,
      'the mail in the local SES',
    );
    const link = /<a href="([^"]+)"/.exec(mail!.body.html ?? '')![1];

    const elsewhere = await fetch(link.replace(/\/0$/, '/1'), { redirect: 'manual' });
    const forged = await fetch(`${new URL(link).origin}/track/click/${'A'.repeat(22)}/0`, { redirect: 'manual' });

    expect([elsewhere.status, forged.status]).toEqual([404, 404]);
  });

  test('the store keeps money exact and counts a repeated event once (DynamoDB numbers, conditional markers)', async () => {
    const store = new DynamoCampaignResults(localClients(stack.endpoints).dynamo, tables.campaigns.localName);
    const campaignKey = `broadcast:money_${randomUUID().slice(0, 8)}`;
    const delta = (deposits: string) => ({ campaign: campaignKey, group: 'recipients' as const, day: '2026-11-21', deposit_count: 1, deposits, ngr: '0' });
    const sent = {
      campaign: campaignKey,
      step: '-',
      day: '2026-11-21',
      counter: 'sent',
      unique: 'sent' as const,
      receipt: 'recipients' as const,
      at: '2026-11-21T10:00:00.000Z',
    };

    const first = await store.tally([{ appId: app.appId, profileId: 'p1', insertId: 'sent-1', tally: sent }]);
    const again = await store.tally([{ appId: app.appId, profileId: 'p1', insertId: 'sent-1', tally: sent }]);
    await store.addMoney(app.appId, 'p1', 'dep-1', delta('0.1'));
    await store.addMoney(app.appId, 'p1', 'dep-2', delta('0.2'));
    await store.addMoney(app.appId, 'p1', 'dep-2', delta('0.2'));

    expect([first, again]).toEqual([
      { counted: 1, repeated: 0 },
      { counted: 0, repeated: 1 },
    ]);
    expect(await store.receipts(app.appId, 'p1')).toEqual([{ campaign: campaignKey, group: 'recipients', at: sent.at }]);
    const stored = await store.read(app.appId, campaignKey);
    expect(stored.steps['-']).toEqual({ sent: 1, sent_unique: 1 });
    expect(stored.money.recipients).toEqual({ players: 1, depositors: 1, deposit_count: 2, deposits: '0.3', ngr: '0' });
  });

  test("a broadcast's batch counts in transactions of many events: each once, each player once, and a redelivery with new events counts only those", async () => {
    const calls: string[] = [];
    const client = localClients(stack.endpoints).dynamo;
    client.middlewareStack.add(
      (next, context) => (args) => {
        calls.push(context.commandName ?? '');
        return next(args);
      },
      { step: 'initialize', name: 'countCalls' },
    );
    const store = new DynamoCampaignResults(client, tables.campaigns.localName);
    const campaignKey = `broadcast:batch_${randomUUID().slice(0, 8)}`;
    const at = '2026-11-21T10:00:00.000Z';
    const entry = (player: number, insertId: string, counter: 'sent' | 'opened') => ({
      appId: app.appId,
      profileId: `p${player}`,
      insertId,
      tally:
        counter === 'sent'
          ? { campaign: campaignKey, step: '-', day: '2026-11-21', counter, unique: 'sent' as const, receipt: 'recipients' as const, at }
          : { campaign: campaignKey, step: '-', day: '2026-11-21', counter, unique: 'opened' as const, at },
    });
    const sends = Array.from({ length: 150 }, (_, i) => entry(i, `sent-${i}`, 'sent'));
    const opens = Array.from({ length: 40 }, (_, i) => entry(i % 20, `open-${i}`, 'opened'));

    const first = await store.tally([...sends.slice(0, 100), ...opens.slice(0, 20), opens[0]!]);
    const transactions = calls.filter((name) => name === 'TransactWriteItemsCommand').length;
    const again = await store.tally([...sends, ...opens]);

    expect(first).toEqual({ counted: 120, repeated: 1 });
    expect(transactions).toBeLessThanOrEqual(5);
    expect(again).toEqual({ counted: 70, repeated: 120 });
    const stored = await store.read(app.appId, campaignKey);
    expect(stored.steps['-']).toEqual({ sent: 150, sent_unique: 150, opened: 40, opened_unique: 20 });
    expect(stored.days['2026-11-21']).toEqual({ sent: 150, opened: 40 });
    expect(stored.money.recipients).toMatchObject({ players: 150 });
    expect(await store.receipts(app.appId, 'p149')).toEqual([{ campaign: campaignKey, group: 'recipients', at }]);
  });

  test('a results address that names no campaign is a 400 naming the problem', async () => {
    const response = await consoleRequest(stack.baseUrl, session, 'GET', '/console/api/results/segment/x');

    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toContain('kind must be one of journey, broadcast');
  });
});
