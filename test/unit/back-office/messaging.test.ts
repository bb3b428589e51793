import { beforeEach, describe, expect, test } from '@jest/globals';
import { emailPlayer, pushPlayer, SentNotRecorded, type MessagingPorts } from '../../../functions/back-office/messaging';
import type { Channel } from '../../../functions/domain/channels';
import type { OutgoingMail } from '../../../functions/domain/email';
import { Conflict, NotFound } from '../../../functions/domain/errors';
import type { StreamEntry, WriteReceipt } from '../../../functions/domain/ingest';
import { pushEndpointPolicy } from '../../../functions/domain/push';
import type { StoredProfile } from '../../../functions/domain/profile-state';
import { decodeEnvelope, partitionKey } from '../../../functions/domain/stream-record';
import { MemoryAuditLog } from '../../support/enterprise';
import type { App } from '../../../functions/domain/apps';
import { MemoryAppStore } from '../../support/affiliates';
import { MemoryDeliveryClaims, MemorySentActions } from '../../support/messaging';
import { fakeUnsubscribe, MemoryDeferredOutbox, MemorySentCounts } from '../../support/send-gate';
import { assignment, MemorySenderStore } from '../../support/settings';

const actor = { appId: 'app_1', userId: 'usr_1', email: 'ada@example.com' };
const actionId = '2f1d1f0e-8c5b-4f51-9d3e-0b6f4c1a7e21';
const token = (name: string) => JSON.stringify({ endpoint: `https://fcm.googleapis.com/fcm/send/${name}`, keys: { p256dh: 'BPk', auth: 'au' } });

const profile = (appId: string, profileId: string, attrs: Record<string, unknown>): StoredProfile => ({
  pk: partitionKey(appId, profileId),
  app_id: appId,
  profile_id: profileId,
  attrs: JSON.stringify(attrs),
  exists: true,
  version: 1,
  updated_at: '2026-11-20T10:00:00.000Z',
  applied: {},
  recent: {},
});

const channel: Channel = {
  app_id: 'app_1',
  channel_id: 'ch_news',
  name: 'News',
  from_email: 'news@example.com',
  from_name: 'Casino News',
  enabled: true,
  created_at: '2026-11-01T00:00:00.000Z',
};

let mailed: OutgoingMail[];
let pushed: string[];
let written: { kind: string; record: Record<string, any> }[];
let refuseWrites: boolean;
let failMail: boolean;
let audit: MemoryAuditLog;
let ports: MessagingPorts;
let senders: MemorySenderStore;

beforeEach(() => {
  mailed = [];
  pushed = [];
  written = [];
  refuseWrites = false;
  failMail = false;
  audit = new MemoryAuditLog();
  const profiles = new Map(
    [
      // Consent: the console's sends are marketing unless said otherwise, and the send gate asks for it.
      profile('app_1', 'p-1', {
        email: 'ann@example.com',
        first_name: 'Ann',
        last_name: 'Lee',
        urm_web_push_notification_token: [token('a'), token('b')],
        urm_consent_email: true,
        urm_receives_notifications: true,
      }),
      profile('app_1', 'p-quiet', { urm_web_push_notification_token: [token('c')], urm_receives_notifications: false }),
      profile('app_1', 'p-bare', { vip: true }),
      profile('app_1', 'p-odd', { email: 'not an address', urm_consent_email: true }),
      profile('app_2', 'p-2', {
        email: 'theirs@example.com',
        urm_web_push_notification_token: [token('d')],
        urm_consent_email: true,
        urm_receives_notifications: true,
      }),
    ].map((p) => [p.pk, p]),
  );
  let ids = 0;
  senders = new MemorySenderStore([assignment('app_1', 'news@example.com')]);
  ports = {
    senders,
    profiles: { get: async (pk) => profiles.get(pk) },
    channels: {
      get: async (appId, channelId) =>
        [channel, { ...channel, channel_id: 'ch_off', enabled: false }].find((c) => c.app_id === appId && c.channel_id === channelId),
    },
    mailer: {
      send: async (mail) => {
        if (failMail) throw new Error('MessageRejected');
        mailed.push(mail);
        return `ses-${mailed.length}`;
      },
    },
    writer: {
      write: async (entries: StreamEntry[]): Promise<WriteReceipt> => {
        if (refuseWrites)
          return {
            EncryptionType: 'NONE',
            FailedRecordCount: entries.length,
            Records: entries.map(() => ({ ErrorCode: 'ProvisionedThroughputExceededException', ErrorMessage: 'slow down' })),
          };
        for (const entry of entries) {
          const { kind, record } = decodeEnvelope(Buffer.from(entry.data));
          written.push({ kind, record: record as Record<string, any> });
        }
        return { EncryptionType: 'NONE', FailedRecordCount: 0, Records: entries.map(() => ({ SequenceNumber: '1', ShardId: 's' })) };
      },
    },
    actions: new MemorySentActions(),
    audit,
    vapid: { forApp: async () => ({ subject: 'mailto:ops@example.com', publicKey: 'BPublic', privateKey: 'private' }) },
    pusher: {
      send: async (subscription) => {
        pushed.push(subscription.endpoint);
        return { status: 'sent' };
      },
    },
    claims: { claim: async () => true, release: async () => undefined },
    // The real policy: browser push services only.
    endpoints: pushEndpointPolicy(''),
    newId: () => `id-${++ids}`,
    now: () => new Date('2026-11-23T10:00:00.000Z'),
    apps: new MemoryAppStore([{ app_id: 'app_1', name: 'Casino', created_at: '2026-11-01T00:00:00.000Z' } as App]),
    counts: new MemorySentCounts(),
    messageClaims: new MemoryDeliveryClaims(),
    outbox: new MemoryDeferredOutbox(),
    appTime: () => new Date('2026-11-23T10:00:00.000Z'),
    unsubscribe: fakeUnsubscribe,
  };
});

const email = { channel_id: 'ch_news', subject: 'Your bonus', text_body: 'Hello Ann' };

describe('emailing a player from the back office', () => {
  test("sends one mail through the channel to the player's email attribute, with the player's name and a one-click unsubscribe", async () => {
    const answer = await emailPlayer(ports)(actor, 'p-1', { ...email, action_id: actionId });

    expect(answer).toEqual({ action_id: actionId, message_id: 'ses-1' });
    const unsubscribe = 'https://casino.example/unsubscribe/app_1.p-1';
    expect(mailed).toEqual([
      {
        from: '"Casino News" <news@example.com>',
        to: ['"Ann Lee" <ann@example.com>'],
        replyTo: [],
        subject: 'Your bonus',
        text: `Hello Ann\n\n--\nUnsubscribe: ${unsubscribe}\n`,
        tags: { app_id: 'app_1', channel_id: 'ch_news', profile: 'cC0x' },
        headers: [
          { name: 'List-Unsubscribe', value: `<${unsubscribe}>` },
          { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
        ],
      },
    ]);
  });

  test('a transactional (account) message carries no unsubscribe link', async () => {
    await emailPlayer(ports)(actor, 'p-1', { ...email, action_id: actionId, purpose: 'transactional', reason: 'password reset' });

    expect(mailed).toEqual([expect.objectContaining({ text: 'Hello Ann' })]);
    expect(mailed[0]).not.toHaveProperty('headers');
  });

  test("puts an urm_email_sent event naming the user on the player's timeline, and audits player.email_sent", async () => {
    await emailPlayer(ports)(actor, 'p-1', { ...email, action_id: actionId });

    expect(written).toEqual([
      {
        kind: 'event',
        record: expect.objectContaining({
          app_id: 'app_1',
          profile_id: 'p-1',
          event: 'urm_email_sent',
          urm_insert_id: 'urm-email-ses-1',
          message_id: 'ses-1',
          channel_id: 'ch_news',
          subject: 'Your bonus',
          user_id: 'usr_1',
          user_email: 'ada@example.com',
          action_id: actionId,
        }),
      },
    ]);
    expect(audit.entries.map(({ action, target, actor: by, details }) => ({ action, target, by, details }))).toEqual([
      {
        action: 'player.email_sent',
        target: 'player:p-1',
        by: { user_id: 'usr_1', email: 'ada@example.com' },
        details: { channel_id: 'ch_news', subject: 'Your bonus', message_id: 'ses-1', action_id: actionId, purpose: 'marketing' },
      },
    ]);
  });

  test('a retry with the same action_id sends nothing, answers the first outcome and writes the same event again', async () => {
    const send = emailPlayer(ports);

    const first = await send(actor, 'p-1', { ...email, action_id: actionId });
    const again = await send(actor, 'p-1', { ...email, action_id: actionId });

    expect(again).toEqual(first);
    expect(mailed).toHaveLength(1);
    expect(written.map((w) => w.record.urm_insert_id)).toEqual(['urm-email-ses-1', 'urm-email-ses-1']);
    expect(audit.entries).toHaveLength(1);
  });

  test('the same action_id for another message is a conflict, and nothing is sent', async () => {
    const send = emailPlayer(ports);
    await send(actor, 'p-1', { ...email, action_id: actionId });

    await expect(send(actor, 'p-1', { ...email, subject: 'Something else', action_id: actionId })).rejects.toThrow(Conflict);
    expect(mailed).toHaveLength(1);
  });

  test('when the stream refuses the event the call fails, and the retry records it without sending again', async () => {
    const send = emailPlayer(ports);
    refuseWrites = true;

    await expect(send(actor, 'p-1', { ...email, action_id: actionId })).rejects.toThrow(SentNotRecorded);
    refuseWrites = false;
    const retry = await send(actor, 'p-1', { ...email, action_id: actionId });

    expect(retry).toEqual({ action_id: actionId, message_id: 'ses-1' });
    expect(mailed).toHaveLength(1);
    expect(written.map((w) => w.record.event)).toEqual(['urm_email_sent']);
    expect(audit.entries.map((e) => e.action)).toEqual(['player.email_sent']);
  });

  test('a mail the mail service refused can be sent again with the same action_id', async () => {
    const send = emailPlayer(ports);
    failMail = true;

    await expect(send(actor, 'p-1', { ...email, action_id: actionId })).rejects.toThrow('MessageRejected');
    failMail = false;
    const retry = await send(actor, 'p-1', { ...email, action_id: actionId });

    expect(retry).toMatchObject({ message_id: 'ses-1' });
    expect(mailed).toHaveLength(1);
  });

  test('without an action_id, each call is its own action, under a new id', async () => {
    const send = emailPlayer(ports);

    const [first, second] = [await send(actor, 'p-1', email), await send(actor, 'p-1', email)];

    expect(first.action_id).not.toBe(second.action_id);
    expect(mailed).toHaveLength(2);
  });

  test('a player without an email address, or with one that is not an address, is a conflict and nothing is sent', async () => {
    const send = emailPlayer(ports);

    await expect(send(actor, 'p-bare', email)).rejects.toThrow(new Conflict('the player has no email address (attribute email)'));
    await expect(send(actor, 'p-odd', email)).rejects.toThrow(new Conflict("the player's email attribute is not an email address"));
    expect(mailed).toEqual([]);
  });

  test("an unknown player, another application's player, and an unknown or disabled channel are not found", async () => {
    const send = emailPlayer(ports);

    await expect(send(actor, 'p-9', email)).rejects.toThrow(new NotFound('player not found'));
    await expect(send(actor, 'p-2', email)).rejects.toThrow(new NotFound('player not found'));
    await expect(send(actor, 'p-1', { ...email, channel_id: 'ch_none' })).rejects.toThrow(new NotFound('channel not found'));
    await expect(send(actor, 'p-1', { ...email, channel_id: 'ch_off' })).rejects.toThrow(new NotFound('channel not found'));
    expect(mailed).toEqual([]);
  });
});

describe('emailing a player through a channel whose sender the application no longer holds', () => {
  test('is a conflict naming the sender, and nothing is claimed, sent or audited', async () => {
    await senders.release('app_1', 'news@example.com');
    await senders.claim(assignment('app_2', 'news@example.com'));

    const sending = emailPlayer(ports)(actor, 'p-1', { ...email, action_id: actionId });

    await expect(sending).rejects.toThrow(Conflict);
    await expect(sending).rejects.toThrow(/news@example\.com is not assigned to the application/);
    expect([mailed, written, audit.entries]).toEqual([[], [], []]);
    expect(await ports.actions.claim('app_1', actionId, 'x', new Date())).toBeUndefined();
  });
});

describe('pushing to a player from the back office', () => {
  const push = { title: 'Your bonus', body: 'is ready', url: 'https://casino.example.com/bonus' };

  test('sends to every web device of the player under the action id, and records who sent it', async () => {
    const answer = await pushPlayer(ports)(actor, 'p-1', { ...push, action_id: actionId });

    expect(answer).toEqual({ action_id: actionId, notification_id: actionId, sent: 2, failed: 0, removed: 0, unsent: 0, skipped: 0 });
    expect(pushed).toEqual(['https://fcm.googleapis.com/fcm/send/a', 'https://fcm.googleapis.com/fcm/send/b']);
    expect(written).toEqual([
      {
        kind: 'event',
        record: expect.objectContaining({
          event: 'urm_push_sent',
          urm_insert_id: `${actionId}:sent`,
          notification_id: actionId,
          sent: 2,
          user_id: 'usr_1',
          user_email: 'ada@example.com',
          action_id: actionId,
        }),
      },
    ]);
    expect(audit.entries.map((e) => [e.action, e.target, e.details?.notification_id])).toEqual([['player.push_sent', 'player:p-1', actionId]]);
  });

  test('a retry with the same action_id pushes nothing and keeps one event on the timeline', async () => {
    const send = pushPlayer(ports);

    const first = await send(actor, 'p-1', { ...push, action_id: actionId });
    const again = await send(actor, 'p-1', { ...push, action_id: actionId });

    expect(again).toEqual(first);
    expect(pushed).toHaveLength(2);
    expect(new Set(written.map((w) => w.record.urm_insert_id))).toEqual(new Set([`${actionId}:sent`]));
    expect(audit.entries).toHaveLength(1);
  });

  test('a player without a web push device, or who said no to notifications, is a conflict and nothing is pushed', async () => {
    const send = pushPlayer(ports);

    await expect(send(actor, 'p-bare', push)).rejects.toThrow(new Conflict('the player has no web push device'));
    await expect(send(actor, 'p-quiet', push)).rejects.toThrow(new Conflict('the player does not receive notifications (urm_receives_notifications is false)'));
    expect(pushed).toEqual([]);
  });

  test("another application's player is not found", async () => {
    await expect(pushPlayer(ports)(actor, 'p-2', push)).rejects.toThrow(new NotFound('player not found'));
    expect(pushed).toEqual([]);
  });
});
