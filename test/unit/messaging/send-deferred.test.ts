/** The deferred sender (functions/scheduled/send-deferred) over in-memory ports: due messages go once, through the gate again. */
import { beforeEach, describe, expect, test } from '@jest/globals';
import type { App } from '../../../functions/domain/apps';
import { gatedSend, type GatedPorts, type GatedRequest } from '../../../functions/messaging/gated';
import { runSendDeferred, type SendDeferredDeps } from '../../../functions/scheduled/send-deferred/core';
import { MemoryAppStore } from '../../support/affiliates';
import { FakeClock } from '../../support/enterprise';
import { MemoryStream } from '../../support/memory-stream';
import { MemoryDeliveryClaims, MemoryMailer } from '../../support/messaging';
import { MemoryProfiles, storedProfile } from '../../support/players';
import { MemoryDeferredOutbox, MemorySentCounts, newsChannel, fakeUnsubscribe } from '../../support/send-gate';
import { assignment, MemorySenderStore } from '../../support/settings';

const channel = newsChannel;
const consenting = { email: 'ann@example.com', urm_consent_email: true };
const request: GatedRequest = {
  appId: 'app_1',
  profileId: 'p-1',
  purpose: 'marketing',
  messageId: 'm-1',
  message: { channel: 'email', email: { channel_id: 'ch_news', subject: 'Free spins', text_body: 'Ten free spins' } },
};

let clock: FakeClock;
let profiles: MemoryProfiles;
let outbox: MemoryDeferredOutbox;
let mailer: MemoryMailer;
let stream: MemoryStream;
let gate: GatedPorts;
let deps: SendDeferredDeps;
let ids: number;

beforeEach(async () => {
  // 10:00 UTC, inside quiet hours 09:00–12:00.
  clock = new FakeClock(new Date('2026-11-23T10:00:00.000Z'));
  profiles = new MemoryProfiles(storedProfile('app_1', 'p-1', consenting));
  outbox = new MemoryDeferredOutbox();
  mailer = new MemoryMailer();
  stream = new MemoryStream();
  ids = 0;
  gate = {
    apps: new MemoryAppStore([{ app_id: 'app_1', name: 'Casino', created_at: '', messaging: { quiet_hours: { start: '09:00', end: '12:00' } } } as App]),
    profiles,
    counts: new MemorySentCounts(),
    messageClaims: new MemoryDeliveryClaims(),
    outbox,
    writer: stream,
    appTime: clock.now,
    newId: () => `id-${++ids}`,
    unsubscribe: fakeUnsubscribe,
    email: { channels: { get: async () => channel }, senders: new MemorySenderStore([assignment('app_1', 'news@example.com')]), mailer },
  };
  deps = { queue: outbox, send: gatedSend(gate), appTime: clock.now, aheadMs: () => 0, now: clock.now, newId: () => `lease-${++ids}` };
  await gatedSend(gate)(request);
});

const events = () =>
  stream.envelopes().map((e) => (e.record as unknown as { event: string; reason?: string }).reason ?? (e.record as unknown as { event: string }).event);

describe('the deferred sender', () => {
  test('leaves a message alone until the window ends, then sends it once and removes it', async () => {
    const early = await runSendDeferred(deps)();
    clock.advance(2 * 3600_000);
    const due = await runSendDeferred(deps)();
    const after = await runSendDeferred(deps)();

    expect([early.sent, due.sent, after.sent]).toEqual([0, 1, 0]);
    expect(mailer.sent).toHaveLength(1);
    expect(outbox.items.size).toBe(0);
    expect(events()).toEqual(['quiet_hours', 'urm_email_sent']);
  });

  test('two runs that read the same message send it once: the second cannot take it', async () => {
    clock.advance(2 * 3600_000);
    const [message] = await outbox.due('due#0', clock.now(), 10);
    outbox.beforeNextTake = () => {
      void outbox.take(message, 'other-run', new Date(clock.now().getTime() + 60_000));
    };

    const run = await runSendDeferred(deps)();

    expect(run).toMatchObject({ due: 1, taken: 0, sent: 0 });
    expect(mailer.sent).toEqual([]);
  });

  test('a run that died after sending leaves the message to the next, which sends nothing more', async () => {
    clock.advance(2 * 3600_000);
    // The first run sends, then dies before removing the message.
    outbox.done = async () => {
      throw new Error('the run died');
    };
    await runSendDeferred(deps)().catch(() => undefined);
    outbox.done = MemoryDeferredOutbox.prototype.done.bind(outbox);
    clock.advance(10 * 60_000);

    const next = await runSendDeferred(deps)();

    expect(next).toMatchObject({ taken: 1, duplicate: 1, sent: 0 });
    expect(mailer.sent).toHaveLength(1);
    expect(outbox.items.size).toBe(0);
  });

  test('a failed read sends nothing and keeps the message for a later run', async () => {
    clock.advance(2 * 3600_000);
    const read = profiles.get.bind(profiles);
    profiles.get = async () => {
      throw new Error('throttled');
    };

    const failed = await runSendDeferred(deps)();
    profiles.get = read;
    clock.advance(10 * 60_000);
    const later = await runSendDeferred(deps)();

    expect(failed).toMatchObject({ taken: 1, failed: 1, sent: 0 });
    expect(later).toMatchObject({ sent: 1 });
    expect(mailer.sent).toHaveLength(1);
  });

  test('the gate is asked again: a player excluded meanwhile gets nothing, and the message goes', async () => {
    profiles.add(storedProfile('app_1', 'p-1', { ...consenting, urm_rg_status: 'self_excluded' }));
    clock.advance(2 * 3600_000);

    const run = await runSendDeferred(deps)();

    expect(run).toMatchObject({ suppressed: 1, sent: 0 });
    expect(mailer.sent).toEqual([]);
    expect(outbox.items.size).toBe(0);
    expect(events()).toEqual(['quiet_hours', 'rg_status']);
  });

  test('an application whose clock is ahead is looked at as far ahead as its clock', async () => {
    const ahead = 2 * 3600_000;
    const appClock = () => new Date(clock.now().getTime() + ahead);

    const run = await runSendDeferred({ ...deps, send: gatedSend({ ...gate, appTime: appClock }), appTime: appClock, aheadMs: () => ahead })();

    expect(run.sent).toBe(1);
    expect(mailer.sent).toHaveLength(1);
  });
});
