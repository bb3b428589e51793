/** The gated send (functions/messaging/gated.ts) over in-memory ports: what it reads, what it records, and that a message goes once. */
import { beforeEach, describe, expect, test } from '@jest/globals';
import type { App } from '../../../functions/domain/apps';
import type { MessagingSettings } from '../../../functions/domain/send-gate';
import { gatedSend, type GatedPorts, type GatedRequest } from '../../../functions/messaging/gated';
import { MemoryAppStore } from '../../support/affiliates';
import { FakeClock } from '../../support/enterprise';
import { MemoryStream } from '../../support/memory-stream';
import { fixedVapid, MemoryDeliveryClaims, MemoryMailer, MemoryPushSender } from '../../support/messaging';
import { MemoryProfiles, storedProfile } from '../../support/players';
import { pushEndpointPolicy } from '../../../functions/domain/push';
import { MemoryDeferredOutbox, MemorySentCounts, newsChannel, fakeUnsubscribe } from '../../support/send-gate';
import { assignment, MemorySenderStore } from '../../support/settings';

const channel = newsChannel;
const consenting = { email: 'ann@example.com', name: 'Ann Lee', urm_consent_email: true };
const token = JSON.stringify({ endpoint: 'https://fcm.googleapis.com/fcm/send/a', keys: { p256dh: 'BPk', auth: 'au' } });

let clock: FakeClock;
let profiles: MemoryProfiles;
let apps: MemoryAppStore;
let counts: MemorySentCounts;
let claims: MemoryDeliveryClaims;
let outbox: MemoryDeferredOutbox;
let stream: MemoryStream;
let mailer: MemoryMailer;
let pusher: MemoryPushSender;
let ports: GatedPorts;

function withSettings(messaging: MessagingSettings) {
  apps.apps[0] = { ...apps.apps[0], messaging };
}

const email = (messageId: string, more: Partial<GatedRequest> = {}): GatedRequest => ({
  appId: 'app_1',
  profileId: 'p-1',
  purpose: 'marketing',
  messageId,
  message: { channel: 'email', email: { channel_id: 'ch_news', subject: 'Free spins', text_body: 'Ten free spins' } },
  ...more,
});

const suppressions = () =>
  stream
    .envelopes()
    .filter((e) => (e.record as { event?: string }).event === 'urm_message_suppressed')
    .map((e) => e.record as Record<string, unknown>);

beforeEach(() => {
  // A Monday, 10:00 UTC.
  clock = new FakeClock(new Date('2026-11-23T10:00:00.000Z'));
  profiles = new MemoryProfiles(storedProfile('app_1', 'p-1', consenting));
  apps = new MemoryAppStore([{ app_id: 'app_1', name: 'Casino', created_at: '2026-11-01T00:00:00.000Z' } as App]);
  counts = new MemorySentCounts();
  claims = new MemoryDeliveryClaims();
  outbox = new MemoryDeferredOutbox();
  stream = new MemoryStream();
  mailer = new MemoryMailer();
  pusher = new MemoryPushSender();
  ports = {
    apps,
    profiles,
    counts,
    messageClaims: claims,
    outbox,
    writer: stream,
    appTime: clock.now,
    newId: () => 'id',
    unsubscribe: fakeUnsubscribe,
    email: {
      channels: { get: async (appId, id) => (appId === channel.app_id && id === channel.channel_id ? channel : undefined) },
      senders: new MemorySenderStore([assignment('app_1', 'news@example.com')]),
      mailer,
    },
    push: { vapid: fixedVapid(), pusher, claims: new MemoryDeliveryClaims(), endpoints: pushEndpointPolicy('') },
  };
});

describe('a gated send', () => {
  test('reads the player consistently, and a consenting player gets the marketing mail with its event', async () => {
    const outcome = await gatedSend(ports)(email('m-1'));

    expect(outcome).toMatchObject({ status: 'sent', email: { message_id: 'ses-1' }, recorded: true });
    expect(profiles.reads).toEqual([{ pks: ['app_1#p-1'], consistent: true, many: false }]);
    expect(mailer.sent.map((mail) => mail.to)).toEqual([['"Ann Lee" <ann@example.com>']]);
    expect(stream.envelopes().map((e) => (e.record as unknown as { event: string }).event)).toEqual(['urm_email_sent']);
  });

  test('a self-excluded player gets no marketing: nothing sent, the refusal on the timeline with its reason', async () => {
    profiles.add(storedProfile('app_1', 'p-1', { ...consenting, urm_rg_status: 'self_excluded', urm_rg_until: '2027-01-01T00:00:00Z' }));

    const outcome = await gatedSend(ports)(email('m-1', { sentBy: { user_id: 'usr_1' } }));

    expect(outcome).toEqual({ status: 'suppressed', reason: 'rg_status', detail: 'self-excluded until 2027-01-01' });
    expect(mailer.sent).toEqual([]);
    expect(suppressions()).toEqual([
      expect.objectContaining({
        profile_id: 'p-1',
        channel: 'email',
        purpose: 'marketing',
        reason: 'rg_status',
        detail: 'self-excluded until 2027-01-01',
        message_id: 'm-1',
        user_id: 'usr_1',
        urm_insert_id: 'urm-gate-m-1:rg_status',
      }),
    ]);
  });

  test('the same player gets a transactional message', async () => {
    profiles.add(storedProfile('app_1', 'p-1', { email: 'ann@example.com', urm_rg_status: 'self_excluded' }));

    const outcome = await gatedSend(ports)(email('m-1', { purpose: 'transactional' }));

    expect(outcome.status).toBe('sent');
    expect(mailer.sent).toHaveLength(1);
  });

  test('a failed read of the player sends nothing and records nothing: the caller retries', async () => {
    profiles.get = async () => {
      throw new Error('throttled');
    };

    await expect(gatedSend(ports)(email('m-1'))).rejects.toThrow('throttled');
    expect(mailer.sent).toEqual([]);
    expect(stream.entries()).toEqual([]);
  });

  test('a failed read of the counts sends nothing', async () => {
    counts.failRead = new Error('throttled');

    await expect(gatedSend(ports)(email('m-1'))).rejects.toThrow('throttled');
    expect(mailer.sent).toEqual([]);
  });

  test("with a cap of one a day, the day's second marketing mail is refused and the next local day's is sent", async () => {
    withSettings({ caps: { email: { daily: 1 } }, time_zone: 'Europe/Malta' });
    const send = gatedSend(ports);

    const first = await send(email('m-1'));
    const second = await send(email('m-2'));
    clock.advance(14 * 3600_000); // 00:00 on Tuesday in Malta (UTC+1).
    const nextDay = await send(email('m-3'));

    expect([first.status, second.status, nextDay.status]).toEqual(['sent', 'suppressed', 'sent']);
    expect(second).toMatchObject({ reason: 'daily_cap' });
    expect(mailer.sent).toHaveLength(2);
  });

  test('in quiet hours a marketing mail is deferred to the end of the window, stored whole, once', async () => {
    withSettings({ quiet_hours: { start: '09:00', end: '12:00' } });
    const send = gatedSend(ports);

    const outcome = await send(email('m-1'));
    await send(email('m-1'));

    expect(outcome).toMatchObject({ status: 'deferred', deferred_until: '2026-11-23T12:00:00.000Z' });
    expect([...outbox.items.values()]).toEqual([{ request: email('m-1'), dueAt: '2026-11-23T12:00:00.000Z' }]);
    expect(mailer.sent).toEqual([]);
    expect(suppressions()).toEqual([
      expect.objectContaining({ reason: 'quiet_hours', deferred_until: '2026-11-23T12:00:00.000Z' }),
      expect.objectContaining({ reason: 'quiet_hours', deferred_until: '2026-11-23T12:00:00.000Z' }),
    ]);
    expect(new Set(suppressions().map((s) => s.urm_insert_id)).size).toBe(1);
  });

  test('the same message id is sent once, and its cap place is given back', async () => {
    withSettings({ caps: { email: { daily: 5 } } });
    const send = gatedSend(ports);

    await send(email('m-1'));
    const again = await send(email('m-1'));

    expect(again).toEqual({ status: 'duplicate' });
    expect(mailer.sent).toHaveLength(1);
    expect(await counts.read('app_1', 'p-1', 'email', { day: '2026-11-23', week: '2026-W48', minutes: 600 })).toEqual({ day: 1, week: 1 });
  });

  test('a mail the provider refused gives back its cap place and its message id: a retry sends it', async () => {
    withSettings({ caps: { email: { daily: 1 } } });
    const send = gatedSend(ports);
    const working = mailer.send.bind(mailer);
    mailer.send = async () => {
      throw new Error('MessageRejected');
    };

    await expect(send(email('m-1'))).rejects.toThrow('MessageRejected');
    mailer.send = working;
    const retry = await send(email('m-1'));

    expect(retry.status).toBe('sent');
    expect(mailer.sent).toHaveLength(1);
  });

  test('an email attribute that is no address is a conflict that takes no cap place and no message id', async () => {
    withSettings({ caps: { email: { daily: 1 } } });
    profiles.add(storedProfile('app_1', 'p-1', { ...consenting, email: 'not an address' }));

    await expect(gatedSend(ports)(email('m-1'))).rejects.toThrow("the player's email attribute is not an email address");
    expect(counts.items.size).toBe(0);
    expect(claims.claimed.size).toBe(0);
  });

  test('push to a player without push consent is refused, with consent it reaches the device', async () => {
    profiles.add(storedProfile('app_1', 'p-1', { urm_web_push_notification_token: [token] }));
    const send = gatedSend(ports);
    const push = (messageId: string): GatedRequest => ({ ...email(messageId), message: { channel: 'push', push: { title: 'Spins', body: 'Ten' } } });

    const refused = await send(push('n-1'));
    profiles.add(storedProfile('app_1', 'p-1', { urm_web_push_notification_token: [token], urm_receives_notifications: true }));
    const sent = await send(push('n-2'));

    expect(refused).toMatchObject({ status: 'suppressed', reason: 'no_consent' });
    expect(sent).toMatchObject({ status: 'sent', push: { sent: 1 } });
    expect(pusher.sent).toEqual(['https://fcm.googleapis.com/fcm/send/a']);
  });
});
