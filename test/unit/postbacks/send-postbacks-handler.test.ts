import { beforeAll, beforeEach, describe, expect, jest, test } from '@jest/globals';
import type { ScheduledEvent } from 'aws-lambda';
import { makeSendPostbacksHandler } from '../../../functions/scheduled/send-postbacks/make-handler';
import { postbackSecretName } from '../../../functions/domain/postbacks';
import { logger } from '../../../functions/runtime/logger';
import { MemoryAppStore } from '../../support/affiliates';
import { context } from '../../support/lambda';
import { dueRow, MemoryPostbackOutbox, MemoryPostbackSettings, ScriptedReceiver } from '../../support/postbacks';
import { MemorySecretStore } from '../../support/secrets';

const T0 = new Date('2026-11-23T10:00:00Z');
const ftd = dueRow('f#2026-11-23#player-1', { amount: '50' });
const scheduled = {} as ScheduledEvent;

let outbox: MemoryPostbackOutbox;
let receiver: ScriptedReceiver;
let apps: MemoryAppStore;
let handler: ReturnType<typeof makeSendPostbacksHandler>;
beforeAll(() => {
  jest.spyOn(logger, 'info').mockImplementation(() => {});
});

beforeEach(() => {
  outbox = new MemoryPostbackOutbox();
  outbox.add(ftd);
  const settings = new MemoryPostbackSettings();
  settings.urls.set('app-1#aff-1', 'https://tracker.example.com/pb?e={event}&m={amount}{currency}');
  receiver = new ScriptedReceiver([{ status: 200 }, { status: 200 }, { status: 200 }]);
  apps = new MemoryAppStore([{ app_id: 'app-1', name: 'Casino', created_at: '', currency: 'USD' }]);
  handler = makeSendPostbacksHandler({
    apps,
    outbox,
    settings,
    secrets: new MemorySecretStore({ [postbackSecretName('app-1', 'aff-1')]: 'the-secret' }),
    transport: receiver,
    payoutPlan: async () => undefined,
    now: () => T0,
  });
});

describe('the postback sender', () => {
  test("sends what is due with amounts in the application's currency, and answers the run's counts", async () => {
    const counts = await handler(scheduled, context('SendPostbacks', 900_000));

    expect(counts).toMatchObject({ due: 1, delivered: 1 });
    expect(receiver.calls.map((call) => call.url)).toEqual(['https://tracker.example.com/pb?e=ftd&m=50USD']);
    expect(outbox.log.map((entry) => entry.outcome)).toEqual(['delivered']);
  });

  test('reads each application once per container, not once per run', async () => {
    outbox.add({ ...ftd, sk: 'f#2026-11-23#player-2', profile_id: 'player-2' });

    await handler(scheduled, context('SendPostbacks', 900_000));
    outbox.add({ ...ftd, sk: 'f#2026-11-23#player-3', profile_id: 'player-3' });
    await handler(scheduled, context('SendPostbacks', 900_000));

    expect(apps.reads).toBe(1);
  });

  test('sends nothing when the invocation has too little time left for a delivery', async () => {
    const counts = await handler(scheduled, context('SendPostbacks', 10_000));

    expect(counts).toEqual({ due: 0, delivered: 0, retrying: 0, failed: 0, skipped: 0 });
    expect(receiver.calls).toEqual([]);
  });
});
