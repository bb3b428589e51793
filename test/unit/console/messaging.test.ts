/** The console's messaging routes (functions/console/players): one email or push to a player, once per action id. */
import { describe, expect, test } from '@jest/globals';
import { decodeEnvelope } from '../../../functions/domain/stream-record';
import { consoleRouter } from '../../support/console-router';
import { storedProfile } from '../../support/players';
import { assignment } from '../../support/settings';

const actionId = '7b0f8a52-3c1e-4d7a-9f0b-2a6c5e4d3b21';
const email = { channel_id: 'ch_news', subject: 'Your bonus', html_body: '<p>Hello</p>', action_id: actionId };
const token = JSON.stringify({ endpoint: 'https://fcm.googleapis.com/fcm/send/a', keys: { p256dh: 'BPk', auth: 'au' } });

/** The console with players p-1 (an address), p-bare (none) and p-push (a web push device), and the channel ch_news. */
async function withPlayers() {
  const api = consoleRouter();
  api.profiles.add(
    // Consent: the console's sends are marketing unless said otherwise, and the send gate asks for it.
    storedProfile('app_1', 'p-1', { email: 'ann@example.com', name: 'Ann Lee', urm_consent_email: true }),
    storedProfile('app_1', 'p-bare', { vip: true }),
    storedProfile('app_1', 'p-push', { urm_web_push_notification_token: [token], urm_receives_notifications: true }),
  );
  await api.channels.create({
    app_id: 'app_1',
    channel_id: 'ch_news',
    name: 'News',
    from_email: 'news@example.com',
    from_name: 'Casino News',
    enabled: true,
    created_at: '2026-11-01T00:00:00.000Z',
  });
  api.senders.assignments.push(assignment('app_1', 'news@example.com'));
  return { api, marketer: await api.signIn('marketer', 'mia@example.com') };
}

const streamed = (api: ReturnType<typeof consoleRouter>) =>
  api.stream.writes.flat().map((entry) => [entry.partitionKey, decodeEnvelope(entry.data).record] as const);

describe('emailing a player from the console', () => {
  test("a marketer's mail goes to the player's address, with the event on the stream and the audit entry", async () => {
    const { api, marketer } = await withPlayers();

    const response = await api.call('POST', '/console/api/players/p-1/email', { as: marketer, body: email });

    expect([response.status, response.body]).toEqual([200, { action_id: actionId, message_id: 'ses-1' }]);
    expect(api.mailer.sent).toEqual([expect.objectContaining({ from: '"Casino News" <news@example.com>', to: ['"Ann Lee" <ann@example.com>'] })]);
    expect(api.actions.items.get(`app_1#${actionId}`)?.outcome).toBeDefined();
    expect(streamed(api)).toEqual([
      ['app_1#p-1', expect.objectContaining({ event: 'urm_email_sent', message_id: 'ses-1', user_id: marketer.userId, user_email: 'mia@example.com' })],
    ]);
    expect(api.audit.entries).toEqual([expect.objectContaining({ action: 'player.email_sent', target: 'player:p-1' })]);
  });

  test('a retry with the same action_id answers the first message id and sends nothing', async () => {
    const { api, marketer } = await withPlayers();
    await api.call('POST', '/console/api/players/p-1/email', { as: marketer, body: email });

    const again = await api.call('POST', '/console/api/players/p-1/email', { as: marketer, body: email });

    expect([again.status, again.body]).toEqual([200, { action_id: actionId, message_id: 'ses-1' }]);
    expect(api.mailer.sent).toHaveLength(1);
    expect(api.audit.entries).toHaveLength(1);
  });

  test('a player without an email address is 409, and nothing is sent', async () => {
    const { api, marketer } = await withPlayers();

    const response = await api.call('POST', '/console/api/players/p-bare/email', { as: marketer, body: email });

    expect([response.status, response.body]).toEqual([409, { message: 'the player has no email address (attribute email)' }]);
    expect(api.mailer.sent).toEqual([]);
  });

  test('a viewer is refused with 403, and nothing is sent', async () => {
    const { api } = await withPlayers();

    const response = await api.call('POST', '/console/api/players/p-1/email', { as: await api.signIn('viewer'), body: email });

    expect(response.status).toBe(403);
    expect(api.mailer.sent).toEqual([]);
  });

  test('without the CSRF token the call is refused with 403, and nothing is sent', async () => {
    const { api, marketer } = await withPlayers();

    const response = await api.call('POST', '/console/api/players/p-1/email', { as: marketer, body: email, csrf: false });

    expect([response.status, response.body]).toEqual([403, { message: 'CSRF token missing or invalid' }]);
    expect(api.mailer.sent).toEqual([]);
  });

  test('recipients in the body are refused: the mail goes to the player only', async () => {
    const { api, marketer } = await withPlayers();

    const response = await api.call('POST', '/console/api/players/p-1/email', {
      as: marketer,
      body: { ...email, to_addresses: [{ email: 'eve@example.com', name: 'Eve' }] },
    });

    expect(response.status).toBe(400);
    expect(api.mailer.sent).toEqual([]);
  });
});

describe('pushing to a player from the console', () => {
  test('a player without a web push device is 409, and nothing reaches the stream', async () => {
    const { api, marketer } = await withPlayers();

    const response = await api.call('POST', '/console/api/players/p-bare/push', { as: marketer, body: { title: 'Hi', body: 'there' } });

    expect([response.status, response.body]).toEqual([409, { message: 'the player has no web push device' }]);
    expect(api.stream.writes).toEqual([]);
  });

  test("a marketer's push reaches the player's device, with the event on the stream", async () => {
    const { api, marketer } = await withPlayers();

    const response = await api.call('POST', '/console/api/players/p-push/push', { as: marketer, body: { title: 'Hi', body: 'there', action_id: actionId } });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ action_id: actionId, notification_id: actionId, sent: 1, failed: 0 });
    expect(api.pusher.sent).toEqual(['https://fcm.googleapis.com/fcm/send/a']);
    expect(streamed(api)).toEqual([['app_1#p-push', expect.objectContaining({ event: 'urm_push_sent', user_id: marketer.userId })]]);
  });

  test('a viewer is refused with 403', async () => {
    const { api } = await withPlayers();

    const response = await api.call('POST', '/console/api/players/p-push/push', { as: await api.signIn('viewer'), body: { title: 'Hi', body: 'there' } });

    expect(response.status).toBe(403);
    expect(api.pusher.sent).toEqual([]);
  });
});
