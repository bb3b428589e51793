/** A stored template to one player (functions/messaging/send-template.ts), through the real gate over in-memory ports. */
import { beforeEach, describe, expect, test } from '@jest/globals';
import type { App } from '../../../functions/domain/apps';
import type { Channel } from '../../../functions/domain/channels';
import { pushEndpointPolicy } from '../../../functions/domain/push';
import type { MessageTemplate } from '../../../functions/domain/templates';
import { gatedSend } from '../../../functions/messaging/gated';
import { templateSender, type TemplateSendPorts, type TemplateSendRequest } from '../../../functions/messaging/send-template';
import { MemoryAppStore } from '../../support/affiliates';
import { FakeClock } from '../../support/enterprise';
import { MemoryStream } from '../../support/memory-stream';
import { fixedVapid, MemoryDeliveryClaims, MemoryMailer, MemoryPushSender } from '../../support/messaging';
import { MemoryProfiles, storedProfile } from '../../support/players';
import { fakeUnsubscribe, MemoryDeferredOutbox, MemorySentCounts, newsChannel } from '../../support/send-gate';
import { assignment, MemorySenderStore } from '../../support/settings';
import { emailTemplate, MemoryTemplateStore, pushTemplate, storedTemplate, webhookTemplate } from '../../support/templates';

const consenting = { email: 'ann@example.com', name: 'Ann Lee', first_name: 'Ann', urm_consent_email: true, urm_receives_notifications: true };
const welcome = emailTemplate({
  en: {
    subject: 'Welcome, {{ player.first_name | default: "there" }}',
    html: '<p>Your {{ event.amount }} EUR is in. <a href="{{ unsubscribe_url }}">Leave</a></p>',
  },
  de: { subject: 'Willkommen, {{ player.first_name }}', html: '<p>{{ event.amount }} EUR</p>' },
});

let clock: FakeClock;
let profiles: MemoryProfiles;
let templates: MemoryTemplateStore;
let stream: MemoryStream;
let mailer: MemoryMailer;
let pusher: MemoryPushSender;
let channels: Channel[];
let ports: TemplateSendPorts;
let apps: MemoryAppStore;

const request = (more: Partial<TemplateSendRequest> = {}): TemplateSendRequest => ({
  appId: 'app_1',
  profileId: 'p-1',
  templateId: 'welcome',
  purpose: 'marketing',
  messageId: 'm-1',
  data: { amount: '25.00' },
  campaign: { kind: 'journey', id: 'first-deposit', version: 2, step: 'welcome' },
  ...more,
});

const events = (name: string) =>
  stream
    .envelopes()
    .map((e) => e.record as Record<string, unknown>)
    .filter((record) => record.event === name);

function store(template: MessageTemplate) {
  templates.items.set(`app_1/${template.id}`, storedTemplate('app_1', template));
}

beforeEach(() => {
  clock = new FakeClock(new Date('2026-11-23T10:00:00.000Z'));
  profiles = new MemoryProfiles(storedProfile('app_1', 'p-1', consenting));
  templates = new MemoryTemplateStore();
  store(welcome);
  stream = new MemoryStream();
  mailer = new MemoryMailer();
  pusher = new MemoryPushSender();
  channels = [newsChannel];
  apps = new MemoryAppStore([{ app_id: 'app_1', name: 'Lucky Casino', created_at: '2026-11-01T00:00:00.000Z' } as App]);
  const channelPort = {
    get: async (appId: string, id: string) => channels.find((c) => c.app_id === appId && c.channel_id === id),
    listByApp: async (appId: string) => channels.filter((c) => c.app_id === appId),
  };
  const send = gatedSend({
    apps,
    profiles,
    counts: new MemorySentCounts(),
    messageClaims: new MemoryDeliveryClaims(),
    outbox: new MemoryDeferredOutbox(),
    writer: stream,
    appTime: clock.now,
    newId: () => 'id',
    unsubscribe: fakeUnsubscribe,
    email: { channels: channelPort, senders: new MemorySenderStore([assignment('app_1', 'news@example.com')]), mailer },
    push: { vapid: fixedVapid(), pusher, claims: new MemoryDeliveryClaims(), endpoints: pushEndpointPolicy('') },
  });
  ports = { templates, apps, profiles, channels: channelPort, writer: stream, newId: () => 'id', send, unsubscribe: fakeUnsubscribe, now: clock.now };
});

describe('sending a template to a player', () => {
  test("renders the player's attributes, the event's data and the unsubscribe address, and sends it through the gate", async () => {
    const outcome = await templateSender(ports)(request());

    expect(outcome).toMatchObject({ status: 'sent', email: { message_id: 'ses-1' } });
    const [mail] = mailer.sent;
    expect(mail.subject).toBe('Welcome, Ann');
    expect(mail.html).toContain('Your 25.00 EUR is in.');
    const { url } = await fakeUnsubscribe({ app_id: 'app_1' }, 'p-1');
    expect(mail.html).toContain(`href="${url}"`);
    // Derived from the HTML: no text part was written.
    expect(mail.text).toContain('Your 25.00 EUR is in.');
  });

  test('reads the application and the player once per message: the gate decides on the reads the render made', async () => {
    await templateSender(ports)(request());

    expect(mailer.sent).toHaveLength(1);
    expect(apps.reads).toBe(1);
    expect(profiles.reads).toEqual([{ pks: ['app_1#p-1'], consistent: true, many: false }]);
  });

  test('names the campaign on the sent event and in the mail tags, so its results can count it', async () => {
    await templateSender(ports)(request());

    expect(events('urm_email_sent')[0]).toMatchObject({
      campaign: 'journey:first-deposit',
      campaign_version: '2',
      campaign_step: 'welcome',
      template_id: 'welcome',
      purpose: 'marketing',
    });
    expect(mailer.sent[0].tags).toMatchObject({ campaign_kind: 'journey', campaign_id: 'first-deposit', campaign_version: '2', campaign_step: 'welcome' });
  });

  test("picks the variant of the player's urm_language", async () => {
    profiles.add(storedProfile('app_1', 'p-1', { ...consenting, urm_language: 'de-AT' }));

    await templateSender(ports)(request());

    expect(mailer.sent[0].subject).toBe('Willkommen, Ann');
  });

  test('the same message id sends once, however often it is asked', async () => {
    const send = templateSender(ports);

    const first = await send(request());
    const again = await send(request());

    expect(first.status).toBe('sent');
    expect(again).toEqual({ status: 'duplicate' });
    expect(mailer.sent).toHaveLength(1);
  });

  test('a self-excluded player gets nothing: the gate refuses and says why on the timeline', async () => {
    profiles.add(storedProfile('app_1', 'p-1', { ...consenting, urm_rg_status: 'self_excluded' }));

    const outcome = await templateSender(ports)(request());

    expect(outcome).toMatchObject({ status: 'suppressed', reason: 'rg_status' });
    expect(mailer.sent).toHaveLength(0);
    expect(events('urm_message_suppressed')[0]).toMatchObject({ reason: 'rg_status', campaign: 'journey:first-deposit', message_id: 'm-1' });
  });

  test("a transactional template's unsubscribe address renders empty: there is nothing to leave", async () => {
    await templateSender(ports)(request({ purpose: 'transactional' }));

    expect(mailer.sent[0].html).toContain('href=""');
  });

  test('a template that is not there is a failure on the timeline, not an exception', async () => {
    const outcome = await templateSender(ports)(request({ templateId: 'gone' }));

    expect(outcome).toEqual({ status: 'failed', reason: 'no_template', detail: 'template gone does not exist' });
    expect(events('urm_message_failed')[0]).toMatchObject({ reason: 'no_template', template_id: 'gone', campaign: 'journey:first-deposit' });
  });

  test("a template that does not render for this player's data fails once, with the part that failed", async () => {
    store({ ...pushTemplate({ en: { title: 'Hi', body: 'Go', url: '{{ event.link }}' } }), id: 'nudge' });
    const send = templateSender(ports);

    const first = await send(request({ templateId: 'nudge', data: { link: 'not a url' } }));
    await send(request({ templateId: 'nudge', data: { link: 'not a url' } }));

    expect(first).toMatchObject({ status: 'failed', reason: 'render' });
    expect(pusher.sent).toHaveLength(0);
    const failures = events('urm_message_failed');
    // Both writes carry one insert id: the timeline keeps one.
    expect(new Set(failures.map((f) => f.urm_insert_id)).size).toBe(1);
    expect(String(failures[0].detail)).toContain('url');
  });

  test("an email template's channel is its own, else the application's first enabled channel; none is a failure", async () => {
    channels = [];

    const outcome = await templateSender(ports)(request());

    expect(outcome).toMatchObject({ status: 'failed', reason: 'no_channel' });
    expect(mailer.sent).toHaveLength(0);
  });

  test('a push template goes to the gate as a push', async () => {
    store(pushTemplate({ en: { title: 'Hi {{ player.first_name }}', body: 'A bonus waits' } }));
    profiles.add(
      storedProfile('app_1', 'p-1', {
        ...consenting,
        urm_web_push_notification_token: [JSON.stringify({ endpoint: 'https://fcm.googleapis.com/fcm/send/a', keys: { p256dh: 'BPk', auth: 'au' } })],
      }),
    );

    const outcome = await templateSender(ports)(request({ templateId: 'nudge' }));

    expect(outcome).toMatchObject({ status: 'sent', push: { sent: 1 } });
    expect(events('urm_push_sent')[0]).toMatchObject({ campaign: 'journey:first-deposit', template_id: 'nudge' });
  });

  test('a webhook template needs the webhook port: a function without it fails loudly', async () => {
    store(webhookTemplate());

    await expect(templateSender(ports)(request({ templateId: 'hook' }))).rejects.toThrow('webhooks are not wired');
  });
});

describe("a campaign's unsubscribe link", () => {
  test('names the campaign, so an unsubscribe through it counts for the campaign', async () => {
    const asked: unknown[] = [];
    ports.unsubscribe = async (app, profileId, topic, campaign) => {
      asked.push(campaign);
      return fakeUnsubscribe(app, profileId, topic);
    };

    await templateSender(ports)(request());

    expect(asked).toEqual([{ campaign: 'journey:first-deposit', step: 'welcome', version: '2' }]);
  });
});
