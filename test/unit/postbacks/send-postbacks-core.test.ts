import { describe, expect, test } from '@jest/globals';
import { sendPostbacks } from '../../../functions/scheduled/send-postbacks/core';
import { postbackEventId, postbackSecretName, postbackSignature, type PostbackResponse } from '../../../functions/domain/postbacks';
import { dueRow, MemoryPostbackOutbox, MemoryPostbackSettings, ScriptedReceiver } from '../../support/postbacks';

const T0 = new Date('2026-11-23T10:00:00Z');
const row = dueRow;

function setup(script: PostbackResponse[], url: string | null = 'https://tracker.example.com/pb?e={event}&s={sub_id}&id={event_id}&m={amount}{currency}') {
  const outbox = new MemoryPostbackOutbox();
  const settings = new MemoryPostbackSettings();
  settings.urls.set('app-1#aff-1', url ?? undefined);
  const secrets = new Map([[postbackSecretName('app-1', 'aff-1'), 'the-secret']]);
  const receiver = new ScriptedReceiver(script);
  let now = T0;
  const run = sendPostbacks({
    outbox,
    log: outbox,
    settings,
    secrets: { get: async (name) => secrets.get(name) },
    currency: async () => 'EUR',
    payoutPlan: async () => undefined,
    transport: receiver,
    now: () => now,
  });
  return { outbox, receiver, run, at: (time: Date) => (now = time) };
}

const minutesAfter = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

describe('send-postbacks', () => {
  test('a due FTD is sent once, signed, with the sub-id and amount, then is no longer due and is logged delivered', async () => {
    const { outbox, receiver, run } = setup([{ status: 200 }]);
    outbox.add(row('f#2026-11-23#player-1', { amount: '50' }));

    const counts = await run();
    await run();

    expect(counts).toMatchObject({ due: 1, delivered: 1 });
    const eventId = postbackEventId('a#app-1#aff-1', 'f#2026-11-23#player-1');
    expect(receiver.calls).toHaveLength(1);
    const [call] = receiver.calls;
    expect(call.url).toBe(`https://tracker.example.com/pb?e=ftd&s=spring&id=${eventId}&m=50EUR`);
    expect(call.headers).toEqual({
      'X-Urm-Event-Id': eventId,
      'X-Urm-Event': 'ftd',
      'X-Urm-Timestamp': String(T0.getTime() / 1000),
      'X-Urm-Signature': postbackSignature('the-secret', String(T0.getTime() / 1000), call.url),
    });
    expect(outbox.log.map((entry) => [entry.outcome, entry.attempts, entry.status_code])).toEqual([['delivered', 1, 200]]);
  });

  test('a failed attempt is retried a minute later with the same event id, and the log shows both attempts', async () => {
    const { outbox, receiver, run, at } = setup([{ status: 500 }, { status: 200 }]);
    outbox.add(row('r#2026-11-23#player-1'));

    await run();
    at(minutesAfter(0.5));
    await run();
    at(minutesAfter(1));
    await run();

    expect(receiver.calls).toHaveLength(2);
    expect(receiver.calls[0].headers['X-Urm-Event-Id']).toBe(receiver.calls[1].headers['X-Urm-Event-Id']);
    expect(outbox.log.map((entry) => [entry.outcome, entry.attempts, entry.status_code])).toEqual([
      ['retrying', 1, 500],
      ['delivered', 2, 200],
    ]);
  });

  test('after 10 failed attempts the postback is given up, logged failed', async () => {
    const { outbox, receiver, run, at } = setup([{ error: 'connect ECONNREFUSED' }]);
    outbox.add(row('r#2026-11-23#player-1'));

    for (let minute = 0; minute <= 8 * 60; minute += 30) {
      at(minutesAfter(minute));
      await run();
    }

    expect(receiver.calls).toHaveLength(10);
    expect(outbox.log.at(-1)).toMatchObject({ outcome: 'failed', attempts: 10, error: 'connect ECONNREFUSED' });
    expect(outbox.row('a#app-1#aff-1', 'r#2026-11-23#player-1')?.postback_queue).toBeUndefined();
  });

  test('an affiliate without a postback URL gets nothing, and the row is no longer due', async () => {
    const { outbox, receiver, run } = setup([{ status: 200 }], null);
    outbox.add(row('r#2026-11-23#player-1'));

    const counts = await run();

    expect(counts).toMatchObject({ due: 1, skipped: 1 });
    expect(receiver.calls).toHaveLength(0);
    expect(await outbox.due(minutesAfter(60), 10)).toEqual([]);
  });

  test('a template stored before its placeholder was refused in the host is never expanded and called: the attempt fails and is logged', async () => {
    const { outbox, receiver, run } = setup([{ status: 200 }], 'https:{sub_id}.{amount}/pb');
    outbox.add(row('f#2026-11-23#player-1', { sub_id: 'attacker', amount: 'example' }));

    const counts = await run();

    expect(receiver.calls).toHaveLength(0);
    expect(counts).toMatchObject({ due: 1, retrying: 1 });
    expect(outbox.log[0].error).toMatch(/placeholder in its host/);
  });

  test('a row another sender took meanwhile is not sent twice', async () => {
    const { outbox, receiver, run } = setup([{ status: 200 }]);
    outbox.add(row('r#2026-11-23#player-1'));
    const [seen] = await outbox.due(T0, 10);
    await outbox.claim(seen, seen.postback_due, '2026-11-23T10:05:00Z');

    const counts = await run();

    expect(counts.due).toBe(0);
    expect(receiver.calls).toHaveLength(0);
  });

  test('a page at a time: more due rows than a page are all sent in one run', async () => {
    const outboxSetup = setup([{ status: 200 }]);
    for (let i = 0; i < 25; i++) outboxSetup.outbox.add(row(`r#2026-11-23#player-${i}`));
    const run = sendPostbacks({
      outbox: outboxSetup.outbox,
      log: outboxSetup.outbox,
      settings: new MemoryPostbackSettings(),
      secrets: { get: async () => undefined },
      currency: async () => 'EUR',
      payoutPlan: async () => undefined,
      transport: outboxSetup.receiver,
      now: () => T0,
      pageSize: 10,
    });

    expect(await run()).toMatchObject({ due: 25, skipped: 25 });
  });
});
