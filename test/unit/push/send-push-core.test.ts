import type { App } from '../../../functions/domain/apps';
import { MemoryAppStore } from '../../support/affiliates';
import { MemoryDeliveryClaims } from '../../support/messaging';
import { MemoryDeferredOutbox, MemorySentCounts } from '../../support/send-gate';
import { describe, expect, test } from '@jest/globals';
import { sendPush, type PushSent, type SendPushDeps } from '../../../functions/api/send-push/core';
import type { SendPushRequest } from '../../../functions/api/send-push/schema';
import { Forbidden, NotFound, ValidationError } from '../../../functions/domain/errors';
import type { StreamEntry, WriteReceipt } from '../../../functions/domain/ingest';
import { pushEndpointPolicy, type PushOptions, type PushOutcome, type PushSubscriptionJson } from '../../../functions/domain/push';
import { subscriptionKey } from '../../../functions/domain/push';
import type { StoredProfile } from '../../../functions/domain/profile-state';

const vapid = { subject: 'mailto:ops@example.com', publicKey: 'BPublic', privateKey: 'private' };
const tokenFor = (name: string) => JSON.stringify({ endpoint: `https://fcm.googleapis.com/fcm/send/${name}`, keys: { p256dh: 'BPk', auth: 'au' } });

function profile(attributes: Record<string, unknown>, exists = true): StoredProfile {
  return {
    pk: 'app_1#player-1',
    app_id: 'app_1',
    profile_id: 'player-1',
    attrs: JSON.stringify(attributes),
    exists,
    version: 1,
    updated_at: '',
    applied: {},
    recent: {},
  };
}

interface Sent {
  subscription: PushSubscriptionJson;
  payload: Record<string, unknown>;
  options: PushOptions;
}

function harness(
  stored: StoredProfile | undefined,
  answers: Record<string, PushOutcome> = {},
  writer?: (entries: StreamEntry[]) => Promise<WriteReceipt>,
  more: Partial<SendPushDeps> = {},
) {
  const sent: Sent[] = [];
  const written: { kind: string; record: Record<string, any> }[] = [];
  let ids = 0;
  // Delivery claims in memory: `app#notification#subscription`.
  const claimed = new Set<string>();
  const deps: SendPushDeps = {
    profiles: { get: async (pk) => (pk === 'app_1#player-1' ? stored : undefined) },
    vapid: { forApp: async (appId) => (appId === 'app_1' ? vapid : undefined) },
    pusher: {
      send: async (subscription, payload, options) => {
        sent.push({ subscription, payload: JSON.parse(payload), options });
        return answers[subscription.endpoint.split('/').pop()!] ?? { status: 'sent' };
      },
    },
    writer: {
      write:
        writer ??
        (async (entries) => {
          for (const entry of entries) {
            const envelope = JSON.parse(Buffer.from(entry.data).toString('utf8'));
            written.push({ kind: envelope.kind, record: envelope.record });
          }
          return { EncryptionType: 'NONE', FailedRecordCount: 0, Records: entries.map(() => ({ SequenceNumber: '1', ShardId: 's' })) };
        }),
    },
    claims: {
      claim: async (appId, notificationId, subscription) => {
        const key = `${appId}#${notificationId}#${subscription}`;
        if (claimed.has(key)) return false;
        claimed.add(key);
        return true;
      },
      release: async (appId, notificationId, subscription) => void claimed.delete(`${appId}#${notificationId}#${subscription}`),
    },
    endpoints: pushEndpointPolicy(''),
    newId: () => `id-${++ids}`,
    now: () => new Date('2026-11-21T10:00:00Z'),
    ...more,
  };
  const push = sendPush(deps);
  // Without a purpose nothing is gated: the answer is always the counts.
  const send = async (...args: Parameters<typeof push>) => (await push(...args)) as PushSent;
  return { send, push, sent, written, claimed };
}

const request: SendPushRequest = {
  app_id: 'app_1',
  profile_id: 'player-1',
  title: 'Bonus',
  body: 'A free spin is waiting',
  url: 'https://casino.example/spin',
};

describe('send_push', () => {
  test('sends one encrypted message per token, carrying the notification and its ids', async () => {
    const { send, sent } = harness(profile({ urm_web_push_notification_token: [tokenFor('a'), tokenFor('b')] }));

    const answer = await send(request, 'app_1');

    expect({ ...answer, reasons: undefined }).toEqual({ notification_id: 'id-1', sent: 2, failed: 0, removed: 0, unsent: 0, skipped: 0, reasons: undefined });
    expect(sent.map((s) => s.subscription.endpoint)).toEqual(['https://fcm.googleapis.com/fcm/send/a', 'https://fcm.googleapis.com/fcm/send/b']);
    expect(sent[0].payload).toEqual({
      notification_id: 'id-1',
      profile_id: 'player-1',
      title: 'Bonus',
      body: 'A free spin is waiting',
      url: 'https://casino.example/spin',
    });
  });

  test('uses the TTL and urgency asked for, else one day and normal, with the application VAPID keys', async () => {
    const { send, sent } = harness(profile({ urm_web_push_notification_token: [tokenFor('a')] }));

    await send(request, 'app_1');
    await send({ ...request, ttl: 60, urgency: 'high' }, 'app_1');

    expect(sent.map((s) => [s.options.ttl, s.options.urgency])).toEqual([
      [86400, 'normal'],
      [60, 'high'],
    ]);
    expect(sent[0].options.vapid).toEqual(vapid);
  });

  test('sends nothing to a profile with urm_receives_notifications false', async () => {
    const { send, sent, written } = harness(profile({ urm_receives_notifications: false, urm_web_push_notification_token: [tokenFor('a')] }));

    const answer = await send(request, 'app_1');

    expect(sent.length).toBe(0);
    expect(written.length).toBe(0);
    expect([answer.sent, answer.failed, answer.removed]).toEqual([0, 0, 0]);
  });

  test('removes the tokens a push service answered 404 or 410 for, through one profile record', async () => {
    const tokens = [tokenFor('live'), tokenFor('expired'), tokenFor('unknown'), tokenFor('down')];
    const { send, written } = harness(profile({ urm_web_push_notification_token: tokens }), {
      expired: { status: 'gone' },
      unknown: { status: 'gone' },
      down: { status: 'failed', reason: 'the push service answered 503' },
    });

    const answer = await send(request, 'app_1');

    expect([answer.sent, answer.failed, answer.removed]).toEqual([1, 1, 2]);
    expect(answer.reasons).toEqual({ 'the push service answered 503': 1 });
    const removal = written.find((w) => w.kind === 'profile')!.record;
    expect(removal.urm_remove).toEqual({ urm_web_push_notification_token: [tokens[1], tokens[2]] });
    expect(removal.urm_insert_id).toBe('urm-push-id-1-removed');
  });

  test('pushes to at most `concurrency` services at a time and pairs each answer with its token, whatever order they answer in', async () => {
    const tokens = ['a', 'b', 'c', 'd', 'e'].map(tokenFor);
    // How many turns of the event loop each push service takes to answer, and what it answers.
    const services: Record<string, [number, PushOutcome]> = {
      a: [5, { status: 'gone' }],
      b: [0, { status: 'sent' }],
      c: [3, { status: 'gone' }],
      d: [0, { status: 'failed', reason: 'the push service answered 503' }],
      e: [1, { status: 'gone' }],
    };
    let inFlight = 0;
    let most = 0;
    const pusher = {
      send: async (subscription: PushSubscriptionJson) => {
        most = Math.max(most, ++inFlight);
        const [turns, outcome] = services[subscription.endpoint.split('/').pop()!];
        for (let i = 0; i < turns; i++) await new Promise(setImmediate);
        inFlight--;
        return outcome;
      },
    };
    const { send, written } = harness(profile({ urm_web_push_notification_token: tokens }), {}, undefined, { pusher, concurrency: 2 });

    const answer = await send(request, 'app_1');

    expect(most).toBe(2);
    expect([answer.sent, answer.failed, answer.removed]).toEqual([1, 1, 3]);
    const removal = written.find((w) => w.kind === 'profile')!.record;
    expect(removal.urm_remove).toEqual({ urm_web_push_notification_token: [tokens[0], tokens[2], tokens[4]] });
  });

  test('records urm_push_sent on the timeline with the counts, under an insert id of its own', async () => {
    const { send, written } = harness(profile({ urm_web_push_notification_token: [tokenFor('a'), tokenFor('gone')] }), { gone: { status: 'gone' } });

    await send(request, 'app_1');

    const event = written.find((w) => w.kind === 'event')!.record;
    expect(event).toEqual({
      app_id: 'app_1',
      profile_id: 'player-1',
      urm_date_time: '2026-11-21T10:00:00.000Z',
      event: 'urm_push_sent',
      urm_insert_id: 'id-1:sent',
      notification_id: 'id-1',
      title: 'Bonus',
      url: 'https://casino.example/spin',
      tokens: 2,
      sent: 1,
      failed: 0,
      gone: 1,
      unsent: 0,
      skipped: 0,
    });
  });

  test('counts a token that is not a push subscription as failed and keeps it', async () => {
    const { send, sent, written } = harness(profile({ urm_web_push_notification_token: ['apns:abc', tokenFor('a')] }));

    const answer = await send(request, 'app_1');

    expect(sent.length).toBe(1);
    expect([answer.sent, answer.failed, answer.removed]).toEqual([1, 1, 0]);
    expect(answer.reasons).toEqual({ 'the token is not JSON': 1 });
    expect(written.filter((w) => w.kind === 'profile').length).toBe(0);
  });

  test('never sends to a stored token whose endpoint is no push service (stored before the rule), and keeps it', async () => {
    const stale = JSON.stringify({ endpoint: 'https://attacker.example/slow', keys: { p256dh: 'BPk', auth: 'au' } });
    const { send, sent, written } = harness(profile({ urm_web_push_notification_token: [stale, tokenFor('a')] }));

    const answer = await send(request, 'app_1');

    expect(sent.map((s) => s.subscription.endpoint)).toEqual(['https://fcm.googleapis.com/fcm/send/a']);
    expect([answer.sent, answer.failed, answer.removed]).toEqual([1, 1, 0]);
    expect(answer.reasons).toEqual({ 'the endpoint host is not a push service': 1 });
    expect(written.filter((w) => w.kind === 'profile').length).toBe(0);
  });

  test('abandons the sends still waiting at the deadline (the time left less a margin), reports them unsent, and bounds each send by the time left', async () => {
    let clock = Date.parse('2026-11-21T10:00:00Z');
    const timeouts: number[] = [];
    // Each push service takes 3 s; one at a time.
    const pusher = {
      send: async (_subscription: PushSubscriptionJson, _payload: string, options: PushOptions): Promise<PushOutcome> => {
        timeouts.push(options.timeoutMs!);
        clock += 3000;
        return { status: 'sent' };
      },
    };
    const tokens = ['a', 'b', 'c', 'd', 'e'].map(tokenFor);
    const { send, written } = harness(profile({ urm_web_push_notification_token: tokens }), {}, undefined, {
      pusher,
      concurrency: 1,
      now: () => new Date(clock),
    });

    const answer = await send(request, 'app_1', { remainingMs: 10_000 });

    // Deadline at 10 s - 2 s: sends start at 0, 3 and 6 s (with 2 s left); 9 s is past it.
    expect(timeouts).toEqual([4000, 4000, 2000]);
    expect([answer.sent, answer.failed, answer.removed, answer.unsent]).toEqual([3, 0, 0, 2]);
    expect(written.find((w) => w.kind === 'event')!.record).toMatchObject({ tokens: 5, sent: 3, unsent: 2 });
  });

  test('sends nothing when no time is left, and says so', async () => {
    const { send, sent } = harness(profile({ urm_web_push_notification_token: [tokenFor('a')] }));

    const answer = await send(request, 'app_1', { remainingMs: 1500 });

    expect(sent.length).toBe(0);
    expect([answer.sent, answer.failed, answer.unsent]).toEqual([0, 0, 1]);
  });

  test('claims each delivery under the application, the notification and the SHA-256 of the endpoint before sending it', async () => {
    const { send, claimed } = harness(profile({ urm_web_push_notification_token: [tokenFor('a')] }));

    await send(request, 'app_1');

    expect([...claimed]).toEqual([`app_1#id-1#${subscriptionKey('https://fcm.googleapis.com/fcm/send/a')}`]);
  });

  test("sends under the caller's notification_id, in the payload and the answer", async () => {
    const { send, sent } = harness(profile({ urm_web_push_notification_token: [tokenFor('a')] }));
    const notificationId = '5f0c8e1a-2b3d-4c5e-9f60-718293a4b5c6';

    const answer = await send({ ...request, notification_id: notificationId }, 'app_1');

    expect(answer.notification_id).toBe(notificationId);
    expect(sent[0].payload.notification_id).toBe(notificationId);
  });

  test('a retry with the same notification_id never delivers to a subscription twice, and tries again only where the first failed for sure', async () => {
    const notificationId = '5f0c8e1a-2b3d-4c5e-9f60-718293a4b5c6';
    const tokens = ['ok', 'down', 'slow'].map(tokenFor);
    const answers: Record<string, PushOutcome> = {
      down: { status: 'failed', reason: 'the push service answered 503' },
      slow: { status: 'failed', reason: 'the push service could not be reached: TimeoutError', maybeDelivered: true },
    };
    const { send, sent, written } = harness(profile({ urm_web_push_notification_token: tokens }), answers);

    const first = await send({ ...request, notification_id: notificationId }, 'app_1');
    const retry = await send({ ...request, notification_id: notificationId }, 'app_1');

    expect(sent.map((s) => s.subscription.endpoint.split('/').pop())).toEqual(['ok', 'down', 'slow', 'down']);
    expect([first.sent, first.failed, first.skipped]).toEqual([1, 2, 0]);
    expect([retry.sent, retry.failed, retry.skipped]).toEqual([0, 1, 2]);
    // The retry's event does not replace the first call's on the timeline.
    const events = written.filter((w) => w.kind === 'event').map((w) => w.record.urm_insert_id);
    expect(events[0]).toBe(`${notificationId}:sent`);
    expect(events[1]).toMatch(new RegExp(`^${notificationId}:sent:.+`));
  });

  test('a delivery that cannot be claimed is not sent', async () => {
    const claims = { claim: async () => Promise.reject(new Error('DynamoDB unreachable')), release: async () => undefined };
    const { send, sent } = harness(profile({ urm_web_push_notification_token: [tokenFor('a')] }), {}, undefined, { claims });

    const answer = await send(request, 'app_1');

    expect(sent.length).toBe(0);
    expect([answer.sent, answer.failed]).toEqual([0, 1]);
    expect(answer.reasons).toEqual({ 'the delivery could not be recorded': 1 });
  });

  test('answers what was sent even when the stream write fails, counting unremoved gone tokens as failed', async () => {
    const { send } = harness(profile({ urm_web_push_notification_token: [tokenFor('a'), tokenFor('gone')] }), { gone: { status: 'gone' } }, async () => {
      throw new Error('stream unreachable');
    });

    const answer = await send(request, 'app_1');

    expect([answer.sent, answer.failed, answer.removed]).toEqual([1, 1, 0]);
    expect(String(answer.recordError)).toMatch(/stream unreachable/);
  });

  test('answers zero of everything for a profile without tokens', async () => {
    const { send } = harness(profile({ country: 'MT' }));

    const answer = await send(request, 'app_1');

    expect([answer.sent, answer.failed, answer.removed]).toEqual([0, 0, 0]);
  });

  test("refuses another application's app_id", async () => {
    const { send } = harness(profile({}));

    await expect(send({ ...request, app_id: 'app_2' }, 'app_1')).rejects.toThrow(Forbidden);
  });

  test('answers 404 for a profile that does not exist or was deleted', async () => {
    const missing = harness(undefined).send(request, 'app_1');
    await expect(missing).rejects.toThrow(NotFound);
    await expect(missing).rejects.toThrow(/^profile not found$/);
    await expect(harness(profile({}, false)).send(request, 'app_1')).rejects.toThrow(NotFound);
  });

  test('answers 404 when the application has no VAPID keys', async () => {
    const { send } = harness(profile({}));

    const sending = send({ ...request, app_id: 'app_9' }, 'app_9');

    await expect(sending).rejects.toThrow(NotFound);
    await expect(sending).rejects.toThrow(/not configured/);
  });

  test('refuses a notification too large for a push message', async () => {
    const { send, sent } = harness(profile({ urm_web_push_notification_token: [tokenFor('a')] }));

    await expect(send({ ...request, body: 'é'.repeat(2000) }, 'app_1')).rejects.toThrow(ValidationError);
    expect(sent.length).toBe(0);
  });
});

describe('send_push with a purpose', () => {
  const gate = () => ({
    gate: {
      apps: new MemoryAppStore([{ app_id: 'app_1', name: 'Casino', created_at: '' } as App]),
      counts: new MemorySentCounts(),
      messageClaims: new MemoryDeliveryClaims(),
      outbox: new MemoryDeferredOutbox(),
      appTime: () => new Date('2026-11-21T10:00:00Z'),
    },
  });

  test('marketing to a player without push consent answers what the gate said and pushes nothing', async () => {
    const { push, sent, written } = harness(profile({ urm_web_push_notification_token: [tokenFor('a')] }), {}, undefined, gate());

    const answer = await push({ ...request, purpose: 'marketing' }, 'app_1');

    expect(answer).toEqual({ held: { suppressed: 'no_consent', detail: 'no push consent (urm_receives_notifications is not true)' } });
    expect(sent).toEqual([]);
    expect(written.map((w) => [w.record.event, w.record.reason, w.record.channel])).toEqual([['urm_message_suppressed', 'no_consent', 'push']]);
  });

  test('with consent it pushes, once per notification id', async () => {
    const { push, sent } = harness(profile({ urm_web_push_notification_token: [tokenFor('a')], urm_receives_notifications: true }), {}, undefined, gate());
    const gated = { ...request, purpose: 'marketing' as const, notification_id: '9b2f6c1e-4d3a-4f5b-8e7c-1a2b3c4d5e6f' };

    const first = await push(gated, 'app_1');

    expect(first).toMatchObject({ notification_id: gated.notification_id, sent: 1 });
    await expect(push(gated, 'app_1')).rejects.toThrow('this notification was already sent');
    expect(sent).toHaveLength(1);
  });
});
