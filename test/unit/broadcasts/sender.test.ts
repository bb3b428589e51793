import { describe, expect, test } from '@jest/globals';
import { applyAction, newBroadcast, validCreateBroadcast, type Broadcast, type CreateBroadcast } from '../../../functions/domain/broadcasts';
import type { TemplateSendOutcome, TemplateSendRequest } from '../../../functions/messaging/send-template';
import { broadcastConcurrency, runSendBroadcasts, type SendBroadcastsDeps } from '../../../functions/scheduled/send-broadcasts/core';
import { MemoryBroadcastStore } from '../../support/broadcasts';
import { MemorySegmentStore } from '../../support/segments';
import { MemoryStream } from '../../support/memory-stream';

const APP = 'app1';
const start = new Date('2026-03-10T12:00:00.000Z');

/** A clock the sender's ticks move: sleeping moves it, nothing waits. */
function fakeClock() {
  let at = start.getTime();
  const move = (ms: number) => {
    at += ms;
  };
  return { now: () => new Date(at), sleep: async (ms: number) => move(ms), move };
}

interface World {
  store: MemoryBroadcastStore;
  segments: MemorySegmentStore;
  clock: ReturnType<typeof fakeClock>;
  /** Message ids the fake gate sent, in order (its claim: an id goes once). */
  sent: TemplateSendRequest[];
  stream: MemoryStream;
  deps: SendBroadcastsDeps;
  /** Per send, the outcome (sent unless set). */
  answer: (request: TemplateSendRequest) => TemplateSendOutcome | Promise<TemplateSendOutcome>;
}

function world(members: number, rate = 100): World {
  const store = new MemoryBroadcastStore();
  const segments = new MemorySegmentStore();
  for (let i = 0; i < members; i++) segments.addMember(APP, 'vips', { profile_id: `p${String(i).padStart(4, '0')}`, entered_at: start.toISOString() });
  const clock = fakeClock();
  const stream = new MemoryStream();
  const claimed = new Set<string>();
  let ids = 0;
  const w: World = {
    store,
    segments,
    clock,
    sent: [],
    stream,
    answer: () => ({ status: 'sent', recorded: true }),
    deps: {} as SendBroadcastsDeps,
  };
  w.deps = {
    broadcasts: store,
    segments,
    profiles: { getMany: async () => new Map() },
    apps: { get: async () => ({ messaging: { broadcast_rate: rate } }) },
    send: async (request) => {
      if (claimed.has(request.messageId)) return { status: 'duplicate' };
      const outcome = await w.answer(request);
      if (outcome.status === 'sent') {
        claimed.add(request.messageId);
        w.sent.push(request);
      }
      return outcome;
    },
    writer: stream,
    appTime: clock.now,
    aheadMs: () => 0,
    now: clock.now,
    newId: () => `lease-${++ids}`,
    sleep: clock.sleep,
  };
  return w;
}

async function started(w: World, change: Partial<CreateBroadcast> = {}, id = 'spring'): Promise<Broadcast> {
  const input = validCreateBroadcast({
    broadcast_id: id,
    name: 'Spring',
    template_id: 'spring',
    segment_id: 'vips',
    purpose: 'marketing',
    schedule: { kind: 'now' },
    ...change,
  });
  const broadcast = applyAction(newBroadcast(APP, input, 'user:u1', w.clock.now(), 'x'), 'start', w.clock.now());
  await w.store.create(broadcast);
  return broadcast;
}

const stored = async (w: World, id = 'spring') => (await w.store.get(APP, id)) as Broadcast;

describe('sending a broadcast', () => {
  test('every member gets the template once, at most the rate per second, and the broadcast ends done with its counts', async () => {
    const w = world(250, 100);
    await started(w);
    const perTick: number[] = [];
    const sleep = w.deps.sleep;
    w.deps.sleep = async (ms) => {
      perTick.push(w.sent.length - perTick.reduce((a, b) => a + b, 0));
      await sleep(ms);
    };

    await runSendBroadcasts(w.deps)();

    const broadcast = await stored(w);
    expect(new Set(w.sent.map((r) => r.profileId)).size).toBe(250);
    expect(w.sent).toHaveLength(250);
    expect(Math.max(...perTick)).toBeLessThanOrEqual(100);
    expect(broadcast.status).toBe('done');
    expect(broadcast.counts).toMatchObject({ entered: 250, sent: 250, failed: 0, held_out: 0 });
    expect(w.sent[0]).toMatchObject({
      templateId: 'spring',
      purpose: 'marketing',
      campaign: { kind: 'broadcast', id: 'spring' },
    });
  });

  test('what the gate refuses is counted by reason, and a failed render as failed', async () => {
    const w = world(10);
    await started(w);
    w.answer = (request) =>
      request.profileId === 'p0001' || request.profileId === 'p0002'
        ? { status: 'suppressed', reason: 'rg_status', detail: '' }
        : request.profileId === 'p0003'
          ? { status: 'suppressed', reason: 'unsubscribed', detail: '' }
          : request.profileId === 'p0004'
            ? { status: 'failed', reason: 'render', detail: '' }
            : { status: 'sent', recorded: true };

    await runSendBroadcasts(w.deps)();

    expect((await stored(w)).counts).toMatchObject({ entered: 10, sent: 6, failed: 1, suppressed: { rg_status: 2, unsubscribed: 1 } });
  });

  test('a scheduled broadcast waits for its time', async () => {
    const w = world(5);
    await started(w, { schedule: { kind: 'at', at: '2026-03-10T13:00:00Z' } });

    await runSendBroadcasts(w.deps)();
    expect(w.sent).toHaveLength(0);
    expect((await stored(w)).status).toBe('scheduled');

    w.clock.move(60 * 60_000);
    await runSendBroadcasts(w.deps)();
    expect(w.sent).toHaveLength(5);
  });

  test('a held-out member gets nothing and a holdout event, and is counted as held out', async () => {
    const w = world(400);
    await started(w, { holdout_percent: 20 });

    await runSendBroadcasts(w.deps)();

    const broadcast = await stored(w);
    const sentTo = new Set(w.sent.map((r) => r.profileId));
    const events = w.stream.envelopes().map((envelope) => envelope.record as Record<string, unknown>);
    const held = events.map((event) => event.profile_id as string);
    expect(held.length).toBeGreaterThan(40);
    expect(held.some((id) => sentTo.has(id))).toBe(false);
    expect(events[0]).toMatchObject({ event: 'urm_campaign_holdout', campaign: 'broadcast:spring' });
    expect(broadcast.counts).toMatchObject({ entered: 400, held_out: held.length, sent: 400 - held.length });
  });
});

describe('exactly once', () => {
  test('two runs at the same time never send a member twice', async () => {
    const w = world(300, 50);
    await started(w);

    await Promise.all([runSendBroadcasts(w.deps)(), runSendBroadcasts(w.deps)()]);

    expect(w.sent).toHaveLength(300);
    expect((await stored(w)).counts.sent).toBe(300);
  });

  test('a run that dies after sending, before counting, leaves its recipients to a later run: the gate sends nothing twice, and each is counted once', async () => {
    const w = world(3);
    await started(w);
    const settle = w.store.settle.bind(w.store);
    let dies = true;
    w.store.settle = async (...args) => {
      if (dies) throw new Error('killed');
      return settle(...args);
    };
    await expect(runSendBroadcasts(w.deps)()).rejects.toThrow('killed');

    dies = false;
    w.clock.move(6 * 60_000); // the lease runs out
    await runSendBroadcasts(w.deps)();

    expect(w.sent.map((r) => r.profileId).sort()).toEqual(['p0000', 'p0001', 'p0002']);
    const broadcast = await stored(w);
    expect(broadcast.status).toBe('done');
    // The gate answers the later run's sends as duplicates of uncounted sends: counted then, once.
    expect(broadcast.counts.sent).toBe(3);
  });

  test('a snapshot interrupted midway resumes from its cursor and counts each member once', async () => {
    const w = world(350, 500);
    await started(w);
    const members = w.segments.members.bind(w.segments);
    let calls = 0;
    w.deps.segments = {
      members: async (...args) => {
        if (++calls === 3) throw new Error('throttled');
        return members(...args);
      },
    };
    await expect(runSendBroadcasts(w.deps)()).rejects.toThrow('throttled');
    expect((await stored(w)).counts.entered).toBe(200);

    await runSendBroadcasts(w.deps)();

    expect((await stored(w)).counts.entered).toBe(350);
    expect(w.sent).toHaveLength(350);
  });

  test('a send that keeps throwing is retried after its lease, then given up as failed', async () => {
    const w = world(1);
    await started(w);
    w.answer = () => Promise.reject(new Error('SES down'));

    for (let run = 0; run < 3; run++) {
      await runSendBroadcasts(w.deps)();
      w.clock.move(6 * 60_000);
    }

    expect((await stored(w)).counts.failed).toBe(1);
  });
});

describe('time', () => {
  test('a run whose time runs low mid-tick stops taking recipients, and leaves them due for the next run', async () => {
    const w = world(100, 100);
    await started(w);
    const first = runSendBroadcasts({ ...w.deps, remainingMs: () => (w.sent.length >= 30 ? 10_000 : 60_000) });

    await first();
    const sentFirst = w.sent.length;
    await runSendBroadcasts(w.deps)();

    expect(sentFirst).toBeLessThan(60);
    expect(w.sent).toHaveLength(100);
    expect((await stored(w)).counts.sent).toBe(100);
  });
});

describe('pause and cancel', () => {
  test.each(['pause', 'cancel'] as const)('a %s during a run stops the sending within the run', async (action) => {
    const w = world(500, 100);
    await started(w);
    w.answer = async () => {
      if (w.sent.length >= 120) {
        const current = await stored(w);
        if (current.status === 'running') await w.store.transition(applyAction(current, action, w.clock.now()), 'running');
      }
      return { status: 'sent', recorded: true };
    };

    await runSendBroadcasts(w.deps)();

    // The tick in flight finishes; none after it.
    expect(w.sent.length).toBeLessThanOrEqual(200);
    expect(w.sent.length).toBeGreaterThanOrEqual(120);
    const sentBefore = w.sent.length;
    await runSendBroadcasts(w.deps)();
    expect(w.sent).toHaveLength(sentBefore);
    expect((await stored(w)).status).toBe(action === 'pause' ? 'paused' : 'cancelled');
  });

  test('a paused broadcast resumed goes on where it was and sends everyone once', async () => {
    const w = world(300, 100);
    await started(w);
    let paused = false;
    w.answer = async () => {
      const current = await stored(w);
      if (!paused && w.sent.length >= 50 && current.status === 'running') {
        paused = true;
        await w.store.transition(applyAction(current, 'pause', w.clock.now()), 'running');
      }
      return { status: 'sent', recorded: true };
    };
    await runSendBroadcasts(w.deps)();
    expect(w.sent.length).toBeLessThan(300);

    await w.store.transition(applyAction(await stored(w), 'resume', w.clock.now()), 'paused');
    await runSendBroadcasts(w.deps)();

    expect(w.sent).toHaveLength(300);
    expect(new Set(w.sent.map((r) => r.profileId)).size).toBe(300);
  });
});

describe('what it costs', () => {
  test('a run reads due recipients from the index a tick at a time, never more calls than ticks per broadcast', async () => {
    const w = world(1000, 250);
    await started(w);

    await runSendBroadcasts(w.deps)();

    // 4 ticks of 250, then one to see nothing is due; the settle wait adds a few reads of an empty index.
    expect(w.store.calls.due).toBeLessThanOrEqual(12);
    expect(w.store.calls.take).toBe(1000);
    expect(w.store.calls.settle).toBeLessThanOrEqual(5);
  });
});

describe("a tick's sends at once", () => {
  test("are a fifth of its count, so a send has 200 ms of the second: at least 16, at most 40 (an SDK client's 50 connections)", () => {
    expect([1, 80, 81, 200, 500, 5000].map(broadcastConcurrency)).toEqual([16, 16, 17, 40, 40, 40]);
  });
});
