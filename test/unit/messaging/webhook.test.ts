/** A webhook template to a player (functions/messaging/webhook.ts), sent through templateSender over in-memory ports and a scripted receiver. */
import { createHmac } from 'node:crypto';
import { beforeEach, describe, expect, test } from '@jest/globals';
import type { App } from '../../../functions/domain/apps';
import type { PostbackResponse } from '../../../functions/domain/postbacks';
import { webhookSecretName } from '../../../functions/domain/webhooks';
import { templateSender, type TemplateSendPorts, type TemplateSendRequest } from '../../../functions/messaging/send-template';
import { webhookSecretCacheMs, webhookSender, type WebhookPorts } from '../../../functions/messaging/webhook';
import { MemoryAppStore } from '../../support/affiliates';
import { FakeClock } from '../../support/enterprise';
import { MemoryStream } from '../../support/memory-stream';
import { MemoryDeliveryClaims } from '../../support/messaging';
import { MemoryProfiles, storedProfile } from '../../support/players';
import { ScriptedReceiver } from '../../support/postbacks';
import { MemorySecretStore } from '../../support/secrets';
import { MemoryTemplateStore, storedTemplate, webhookTemplate } from '../../support/templates';

const SECRET = 'urm_webhook_test-secret';
const hook = webhookTemplate('{"player": "{{ player.first_name }}", "amount": "{{ event.amount }}"}', 'https://hooks.example.com/urm');

let clock: FakeClock;
let profiles: MemoryProfiles;
let stream: MemoryStream;
let secrets: MemorySecretStore;
let claims: MemoryDeliveryClaims;
let ports: WebhookPorts;
let templatePorts: TemplateSendPorts;

const request = (more: Partial<TemplateSendRequest> = {}): TemplateSendRequest => ({
  appId: 'app_1',
  profileId: 'p-1',
  templateId: 'hook',
  purpose: 'marketing',
  messageId: 'm-1',
  data: { amount: '25.50' },
  campaign: { kind: 'broadcast', id: 'spring-promo' },
  ...more,
});

const events = (name: string) =>
  stream
    .envelopes()
    .map((e) => e.record as Record<string, unknown>)
    .filter((record) => record.event === name);

function sendWith(receiver: ScriptedReceiver) {
  return templateSender({ ...templatePorts, webhook: webhookSender({ ...ports, transport: receiver }) });
}

const player = (attrs: Record<string, unknown>) => profiles.add(storedProfile('app_1', 'p-1', { first_name: 'Ann', ...attrs }));

beforeEach(() => {
  clock = new FakeClock(new Date('2026-11-23T10:00:00.000Z'));
  profiles = new MemoryProfiles(storedProfile('app_1', 'p-1', { first_name: 'Ann', urm_consent_email: true }));
  stream = new MemoryStream();
  secrets = new MemorySecretStore({ [webhookSecretName('app_1')]: SECRET });
  claims = new MemoryDeliveryClaims();
  const templates = new MemoryTemplateStore();
  templates.items.set(`app_1/${hook.id}`, storedTemplate('app_1', hook));
  const apps = new MemoryAppStore([{ app_id: 'app_1', name: 'Lucky Casino', created_at: '2026-11-01T00:00:00.000Z' } as App]);
  ports = {
    profiles,
    messageClaims: claims,
    secrets,
    transport: new ScriptedReceiver([{ status: 204 }]),
    writer: stream,
    newId: () => 'id',
    appTime: clock.now,
    now: clock.now,
  };
  const noChannels = { get: async () => undefined, listByApp: async () => [] };
  const gateUnused = async () => {
    throw new Error('a webhook never goes through the email and push gate');
  };
  templatePorts = { templates, apps, profiles, channels: noChannels, writer: stream, newId: () => 'id', send: gateUnused, now: clock.now };
});

describe('sending a webhook template', () => {
  test('posts the rendered JSON once, signed so the receiver can check it, and records urm_webhook_sent with the campaign', async () => {
    const receiver = new ScriptedReceiver([{ status: 204 }]);

    const outcome = await sendWith(receiver)(request());

    expect(outcome).toMatchObject({ status: 'sent', recorded: true });
    const [call] = receiver.calls;
    expect(call.url).toBe('https://hooks.example.com/urm');
    expect(JSON.parse(call.body!)).toEqual({ player: 'Ann', amount: '25.50' });
    expect(call.headers).toMatchObject({ 'content-type': 'application/json', 'X-Urm-Message-Id': 'm-1', 'X-Urm-Timestamp': '1795428000' });
    // What a receiver computes: HMAC-SHA256 of "<timestamp>.<raw body>" with the application's webhook secret.
    const expected = createHmac('sha256', SECRET).update(`${call.headers['X-Urm-Timestamp']}.${call.body}`).digest('hex');
    expect(call.headers['X-Urm-Signature']).toBe(`sha256=${expected}`);
    expect(events('urm_webhook_sent')).toEqual([
      expect.objectContaining({
        profile_id: 'p-1',
        channel: 'webhook',
        host: 'hooks.example.com',
        status_code: 204,
        message_id: 'm-1',
        purpose: 'marketing',
        campaign: 'broadcast:spring-promo',
        template_id: 'hook',
      }),
    ]);
  });

  test('the same message id sent again posts nothing more', async () => {
    const receiver = new ScriptedReceiver([{ status: 200 }]);
    const send = sendWith(receiver);

    await send(request());
    const again = await send(request());

    expect(again).toEqual({ status: 'duplicate' });
    expect(receiver.calls).toHaveLength(1);
  });

  test('a marketing webhook about a self-excluded player does not fire, and the refusal is on the timeline', async () => {
    player({ urm_consent_email: true, urm_rg_status: 'self_excluded', urm_rg_until: '2027-06-01T00:00:00Z' });
    const receiver = new ScriptedReceiver([{ status: 204 }]);

    const outcome = await sendWith(receiver)(request());

    expect(outcome).toEqual({ status: 'suppressed', reason: 'rg_status', detail: 'self-excluded until 2027-06-01' });
    expect(receiver.calls).toHaveLength(0);
    expect(events('urm_message_suppressed')).toEqual([
      expect.objectContaining({ channel: 'webhook', reason: 'rg_status', purpose: 'marketing', message_id: 'm-1', campaign: 'broadcast:spring-promo' }),
    ]);
  });

  test('a marketing webhook needs marketing consent on some channel: none refuses, SMS consent alone is enough', async () => {
    player({ urm_consent_email: false });
    const receiver = new ScriptedReceiver([{ status: 204 }]);

    const refused = await sendWith(receiver)(request());
    player({ urm_consent_sms: true });
    const sent = await sendWith(receiver)(request({ messageId: 'm-2' }));

    expect(refused).toMatchObject({ status: 'suppressed', reason: 'no_consent' });
    expect(sent).toMatchObject({ status: 'sent' });
    expect(receiver.calls).toHaveLength(1);
  });

  test('a marketing webhook on a topic the player left does not fire', async () => {
    player({ urm_consent_email: true, urm_unsubscribed_topics: ['promotions'] });
    const receiver = new ScriptedReceiver([{ status: 204 }]);

    const outcome = await sendWith(receiver)(request({ topic: 'promotions' }));

    expect(outcome).toMatchObject({ status: 'suppressed', reason: 'unsubscribed' });
    expect(receiver.calls).toHaveLength(0);
  });

  test('a transactional webhook about a self-excluded player without consent fires: it is about their account', async () => {
    player({ urm_rg_status: 'self_excluded' });
    const receiver = new ScriptedReceiver([{ status: 204 }]);

    const outcome = await sendWith(receiver)(request({ purpose: 'transactional' }));

    expect(outcome).toMatchObject({ status: 'sent' });
    expect(receiver.calls).toHaveLength(1);
  });

  test('a webhook about no such player does not fire, whatever the purpose', async () => {
    const receiver = new ScriptedReceiver([{ status: 204 }]);

    const outcome = await sendWith(receiver)(request({ profileId: 'nobody', purpose: 'transactional' }));

    expect(outcome).toMatchObject({ status: 'suppressed', reason: 'no_player' });
    expect(receiver.calls).toHaveLength(0);
  });

  test('a call that surely sent nothing fails on the timeline and gives the message id back, so a retry sends it', async () => {
    const refused: PostbackResponse = { error: 'refused: url must be https', unsent: true };
    const receiver = new ScriptedReceiver([refused, { status: 200 }]);
    const send = sendWith(receiver);

    const failed = await send(request());
    const retried = await send(request());

    expect(failed).toEqual({ status: 'failed', reason: 'webhook', detail: 'hooks.example.com: refused: url must be https' });
    expect(events('urm_message_failed')).toEqual([
      expect.objectContaining({ channel: 'webhook', reason: 'webhook', message_id: 'm-1', template_id: 'hook', campaign: 'broadcast:spring-promo' }),
    ]);
    expect(retried).toMatchObject({ status: 'sent' });
    expect(receiver.calls).toHaveLength(2);
  });

  test('a receiver that answered an error keeps the message id: a retry posts nothing more (at most once)', async () => {
    const receiver = new ScriptedReceiver([{ status: 500 }, { status: 200 }]);
    const send = sendWith(receiver);

    const failed = await send(request());
    const retried = await send(request());

    expect(failed).toEqual({ status: 'failed', reason: 'webhook', detail: 'hooks.example.com answered 500' });
    expect(retried).toEqual({ status: 'duplicate' });
    expect(receiver.calls).toHaveLength(1);
  });

  test('a timeout after connecting may have reached the receiver: the message id is kept', async () => {
    const receiver = new ScriptedReceiver([{ error: 'no answer within 5000 ms' }, { status: 200 }]);
    const send = sendWith(receiver);

    await send(request());
    const retried = await send(request());

    expect(retried).toEqual({ status: 'duplicate' });
    expect(receiver.calls).toHaveLength(1);
  });

  test('an application without a webhook secret sends nothing unsigned and claims nothing', async () => {
    secrets.values.clear();
    const receiver = new ScriptedReceiver([{ status: 204 }]);

    const outcome = await sendWith(receiver)(request());

    expect(outcome).toMatchObject({ status: 'failed', reason: 'webhook', detail: expect.stringContaining('no webhook signing secret') });
    expect(receiver.calls).toHaveLength(0);
    expect(claims.claimed.size).toBe(0);
  });

  test('the secret is read once per application and minute, not once per webhook (a parameter read is billed)', async () => {
    const send = sendWith(new ScriptedReceiver([{ status: 204 }]));

    for (const id of ['m-1', 'm-2', 'm-3']) await send(request({ messageId: id }));
    clock.advance(webhookSecretCacheMs + 1);
    await send(request({ messageId: 'm-4' }));

    expect(secrets.reads).toEqual([webhookSecretName('app_1'), webhookSecretName('app_1')]);
  });
});
