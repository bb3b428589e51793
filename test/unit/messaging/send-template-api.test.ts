/** POST /api/send_template (functions/api/send-template), its handler over a recorded template sender. */
import { beforeEach, describe, expect, test } from '@jest/globals';
import { makeSendTemplateHandler } from '../../../functions/api/send-template/make-handler';
import type { TemplateSendOutcome, TemplateSendRequest } from '../../../functions/messaging/send-template';
import { FakeClock } from '../../support/enterprise';
import { apiEvent, asProxyHandler, context, type ProxyHandler } from '../../support/lambda';
import { keyResolverOf } from '../../support/settings';

let clock: FakeClock;
let sent: TemplateSendRequest[];
let answer: TemplateSendOutcome;
let handler: ProxyHandler;

beforeEach(() => {
  clock = new FakeClock(new Date('2026-11-23T10:00:00.000Z'));
  sent = [];
  answer = { status: 'sent', email: { message_id: 'ses-1' }, recorded: true };
  handler = asProxyHandler(
    makeSendTemplateHandler({
      keys: keyResolverOf({
        'comms-key': { app_id: 'app_1', scope: 'comms', key_id: 'k1' },
        'server-key': { app_id: 'app_1', scope: 'server', key_id: 'k2' },
      }),
      now: clock.now,
      send: async (request) => {
        sent.push(request);
        return answer;
      },
    }),
  );
});

const valid = { app_id: 'app_1', profile_id: 'player-1', template_id: 'deposit-receipt', purpose: 'transactional', data: { amount: '25.50', bonus: true } };

const post = async (body: unknown, key = 'comms-key') => {
  const response = await handler(
    apiEvent({
      path: '/api/send_template',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'x-api-key': key },
      body: JSON.stringify(body),
    }),
    context('SendTemplateFunction'),
  );
  return { status: response.statusCode, body: JSON.parse(response.body) as Record<string, unknown> };
};

describe('POST /api/send_template', () => {
  test("sends the template to the player with the request's data and purpose, and answers the sent event's message id", async () => {
    const response = await post(valid);

    expect(response).toEqual({ status: 200, body: { message_id: 'ses-1' } });
    expect(sent).toEqual([
      {
        appId: 'app_1',
        profileId: 'player-1',
        templateId: 'deposit-receipt',
        purpose: 'transactional',
        messageId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/),
        data: { amount: '25.50', bonus: true },
      },
    ]);
  });

  test("a webhook or push template answers urm's own message id, the one its receiver and timeline see", async () => {
    answer = { status: 'sent', recorded: true };

    const response = await post(valid);

    expect(response.body).toEqual({ message_id: sent[0].messageId });
  });

  test('the same idempotency_key is the same message whatever else changes; the same request without one is the same message that UTC day only', async () => {
    await post({ ...valid, idempotency_key: 'deposit-981' });
    await post({ ...valid, data: { amount: '99.00' }, idempotency_key: 'deposit-981' });
    await post(valid);
    await post(valid);
    clock.advance(24 * 3600_000);
    await post(valid);

    const [keyed, keyedAgain, plain, plainAgain, nextDay] = sent.map((request) => request.messageId);
    expect(keyedAgain).toBe(keyed);
    expect(plainAgain).toBe(plain);
    expect(new Set([keyed, plain, nextDay]).size).toBe(3);
  });

  test('a message already sent answers 409 (a retried call sends once)', async () => {
    answer = { status: 'duplicate' };

    expect(await post(valid)).toEqual({
      status: 409,
      body: { message: 'this message was already sent (the same idempotency_key, or the same request today)' },
    });
  });

  test("the gate's refusal and deferral answer 200 with why, as send_email's do", async () => {
    answer = { status: 'suppressed', reason: 'rg_status', detail: 'self-excluded until 2027-01-01' };
    const refused = await post({ ...valid, purpose: 'marketing' });
    answer = { status: 'deferred', deferred_until: '2026-11-23T21:00:00.000Z', detail: 'quiet hours until 21:00 (UTC)' };
    const deferred = await post({ ...valid, purpose: 'marketing' });

    expect(refused).toEqual({ status: 200, body: { suppressed: 'rg_status', detail: 'self-excluded until 2027-01-01' } });
    expect(deferred).toEqual({ status: 200, body: { deferred_until: '2026-11-23T21:00:00.000Z', detail: 'quiet hours until 21:00 (UTC)' } });
  });

  test('an unknown player or template answers 404', async () => {
    answer = { status: 'suppressed', reason: 'no_player', detail: 'no such player' };
    const noPlayer = await post(valid);
    answer = { status: 'failed', reason: 'no_template', detail: 'template deposit-receipt does not exist' };
    const noTemplate = await post(valid);

    expect(noPlayer).toEqual({ status: 404, body: { message: 'profile not found' } });
    expect(noTemplate).toEqual({ status: 404, body: { message: 'template not found' } });
  });

  test('a template that does not render with this data answers 422 naming the part; an email template without a channel 409', async () => {
    answer = { status: 'failed', reason: 'render', detail: 'variants.en.html: undefined filter: money' };
    const unrenderable = await post(valid);
    answer = { status: 'failed', reason: 'no_channel', detail: 'the application has no enabled email channel' };
    const noChannel = await post(valid);

    expect(unrenderable).toEqual({
      status: 422,
      body: { message: 'the template does not render with this data', errors: ['variants.en.html: undefined filter: money'] },
    });
    expect(noChannel.status).toBe(409);
  });

  test("a webhook its receiver did not take answers 502 with the receiver's answer", async () => {
    answer = { status: 'failed', reason: 'webhook', detail: 'hooks.example.com answered 500' };

    expect(await post(valid)).toEqual({ status: 502, body: { message: 'the webhook was not delivered: hooks.example.com answered 500' } });
  });

  test('purpose is required, data is an object of event property values, and no other field is taken', async () => {
    const { purpose: _, ...noPurpose } = valid;
    const response = await post({ ...noPurpose, data: { nested: { deep: 1 } }, cc: 'x' });

    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual(
      expect.arrayContaining([expect.stringContaining('purpose'), expect.stringContaining('data.nested'), expect.stringContaining('cc')]),
    );
    expect(sent).toHaveLength(0);
  });

  test('data holds at most 100 properties', async () => {
    const data = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`p${i}`, i]));

    expect((await post({ ...valid, data })).status).toBe(400);
    expect(sent).toHaveLength(0);
  });

  test('only the comms key sends, and only for its own application', async () => {
    expect((await post(valid, 'server-key')).status).toBe(403);
    expect((await post({ ...valid, app_id: 'app_2' })).status).toBe(403);
    expect(sent).toHaveLength(0);
  });
});
