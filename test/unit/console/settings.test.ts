/** The console's settings routes (functions/console/settings): keys and secrets, made once and never shown again. */
import { describe, expect, test } from '@jest/globals';
import { hashApiKey } from '../../../functions/domain/api-keys';
import { consoleRouter } from '../../support/console-router';
import { assignment } from '../../support/settings';

const json = { 'Content-Type': 'application/json' };

const theirKey = { key_hash: 'h-theirs', key_id: 'key_theirs', app_id: 'app_2', scope: 'server', created_at: '2026-01-01T00:00:00.000Z' } as const;
const ourKey = { key_hash: 'h1', key_id: 'key_1', app_id: 'app_1', scope: 'server', created_at: '2026-01-01T00:00:00.000Z' } as const;

describe('issuing a key from the console', () => {
  test('stores only the hash of the key it answers, and audits the key id and scope without the key', async () => {
    const api = consoleRouter();
    const admin = await api.admin();

    const response = await api.call('POST', '/console/api/keys', { body: { scope: 'browser' } });

    expect(response.status).toBe(201);
    const { key, key_id: keyId } = response.body as { key: string; key_id: string };
    expect(response.body).toEqual({ key, key_id: keyId, scope: 'browser', created_at: expect.any(String), revoked_at: null });
    expect(api.keys.keys).toEqual([{ key_hash: hashApiKey(key), key_id: keyId, app_id: 'app_1', scope: 'browser', created_at: expect.any(String) }]);
    expect(api.audit.entries).toEqual([
      expect.objectContaining({
        app_id: 'app_1',
        actor: { user_id: admin.userId, email: 'ada@example.com' },
        action: 'key.issued',
        target: `key:${keyId}`,
        details: { scope: 'browser' },
      }),
    ]);
    expect(JSON.stringify([api.keys.keys, api.audit.entries])).not.toContain(key);
  });

  test('refuses a marketer with 403 and writes nothing', async () => {
    const api = consoleRouter();

    const response = await api.call('POST', '/console/api/keys', { as: await api.signIn('marketer'), body: { scope: 'server' } });

    expect(response.status).toBe(403);
    expect([api.keys.keys, api.audit.entries]).toEqual([[], []]);
  });

  test('refuses an unknown scope with 400', async () => {
    const api = consoleRouter();

    const response = await api.call('POST', '/console/api/keys', { body: { scope: 'root' } });

    expect(response.status).toBe(400);
    expect(api.keys.keys).toEqual([]);
  });
});

describe('revoking a key from the console', () => {
  test("finds the key id within the session's application only: another application's is 404, unaudited", async () => {
    const api = consoleRouter();
    await api.keys.create(theirKey);

    const response = await api.call('POST', '/console/api/keys/key_theirs/revoke');

    expect(response.status).toBe(404);
    expect(api.keys.keys[0]?.revoked_at).toBeUndefined();
    expect(api.audit.entries).toEqual([]);
  });

  test('marks the key revoked and audits key.revoked', async () => {
    const api = consoleRouter();
    await api.keys.create(ourKey);

    const response = await api.call('POST', '/console/api/keys/key_1/revoke');

    expect([response.status, response.body]).toEqual([200, { key_id: 'key_1', message: 'key revoked' }]);
    expect(api.keys.keys[0]?.revoked_at).toBe(api.clock.now().toISOString());
    expect(api.audit.entries).toEqual([expect.objectContaining({ action: 'key.revoked', target: 'key:key_1' })]);
  });

  test('without the CSRF token is 403 and revokes nothing', async () => {
    const api = consoleRouter();
    await api.keys.create(ourKey);

    const response = await api.call('POST', '/console/api/keys/key_1/revoke', { csrf: false });

    expect(response.status).toBe(403);
    expect(api.keys.keys[0]?.revoked_at).toBeUndefined();
  });
});

test('listing keys never answers a hash, nor another application’s key', async () => {
  const api = consoleRouter();
  await api.keys.create({ ...ourKey, key_hash: 'secret-hash' });
  await api.keys.create(theirKey);

  const response = await api.call('GET', '/console/api/keys');

  expect(response.body).toEqual({ keys: [{ key_id: 'key_1', scope: 'server', created_at: '2026-01-01T00:00:00.000Z', revoked_at: null }] });
});

describe('secrets from the console', () => {
  test('a rotated identity secret is written to its own secret and answered, and the audit entry does not carry it', async () => {
    const api = consoleRouter();

    const response = await api.call('POST', '/console/api/identity_secret');

    expect(response.status).toBe(200);
    const secret = response.body.identity_secret as string;
    expect([...api.secrets.values]).toEqual([['apps/app_1/identity-secret', secret]]);
    expect(api.audit.entries).toEqual([expect.objectContaining({ action: 'identity_secret.rotated', target: 'app:app_1' })]);
    expect(JSON.stringify(api.audit.entries)).not.toContain(secret);
    expect((await api.call('GET', '/console/api/app')).body.app).toMatchObject({ app_id: 'app_1', identity_secret_set: true });
  });

  test('the application says whether it has an identity secret by asking the store, never reading the secret', async () => {
    const api = consoleRouter();

    const before = await api.call('GET', '/console/api/app');
    await api.call('POST', '/console/api/identity_secret');
    const after = await api.call('GET', '/console/api/app');

    expect([before.body.app.identity_secret_set, after.body.app.identity_secret_set]).toEqual([false, true]);
    expect(api.secrets.checks).toEqual(['apps/app_1/identity-secret', 'apps/app_1/identity-secret']);
    expect(api.secrets.reads).toEqual([]);
  });

  test('generated VAPID keys: the private key goes to the secret store only, never into the answer or the audit entry', async () => {
    const api = consoleRouter();

    const response = await api.call('POST', '/console/api/vapid', { body: { subject: 'mailto:push@example.com' } });

    expect(response.status).toBe(200);
    const privateKey = api.secrets.values.get('apps/app_1/vapid-private-key')!;
    expect(privateKey).toEqual(expect.any(String));
    expect(response.body).toEqual({ vapid_public_key: expect.any(String), vapid_subject: 'mailto:push@example.com' });
    expect(response.text).not.toContain(privateKey);
    expect(api.audit.entries).toEqual([
      expect.objectContaining({ action: 'vapid.generated', details: { public_key: response.body.vapid_public_key, subject: 'mailto:push@example.com' } }),
    ]);
    expect(JSON.stringify(api.audit.entries)).not.toContain(privateKey);
    expect((await api.call('GET', '/console/api/vapid')).body).toEqual(response.body);
  });

  test('generating again without rotate is 409, and the keys stay', async () => {
    const api = consoleRouter();
    const first = await api.call('POST', '/console/api/vapid', { body: { subject: 'mailto:push@example.com' } });

    const again = await api.call('POST', '/console/api/vapid', { body: {} });

    expect(again.status).toBe(409);
    expect((await api.call('GET', '/console/api/vapid')).body.vapid_public_key).toBe(first.body.vapid_public_key);
  });
});

describe('the application, channels and money from the console', () => {
  test('an update changes what it is given, audited with each change; identity verification is its own entry', async () => {
    const api = consoleRouter();

    const response = await api.call('POST', '/console/api/app', { body: { name: 'Casino Royale', identity_verification: 'off' } });

    expect(response.status).toBe(200);
    expect(response.body.app).toMatchObject({ app_id: 'app_1', name: 'Casino Royale', identity_verification: 'off' });
    expect(api.audit.entries.map((entry) => entry.action)).toEqual(['app.updated', 'app.identity_verification_changed']);
  });

  test('a channel is created enabled, read by marketers, and another application’s channel id is 404', async () => {
    const api = consoleRouter();
    api.senders.assignments.push(assignment('app_1', 'news@example.com'));
    const marketer = await api.signIn('marketer');

    const created = await api.call('POST', '/console/api/channels', { body: { name: 'News', from_email: 'news@example.com', from_name: 'Casino News' } });
    const listed = await api.call('GET', '/console/api/channels', { as: marketer });
    const theirs = await api.call('POST', '/console/api/channels/ch_theirs', { body: { enabled: false } });

    expect(created.status).toBe(201);
    expect(listed.body.channels).toEqual([expect.objectContaining({ channel_id: created.body.channel.channel_id, enabled: true })]);
    expect(theirs.status).toBe(404);
  });

  test('the money mapping is set and read back, with the command line’s messages for a bad one', async () => {
    const api = consoleRouter();

    const set = await api.call('POST', '/console/api/money', { body: { currency: 'USD', money_events: { Deposit: 'deposit' } } });
    const bad = await api.call('POST', '/console/api/money', { body: { money_events: { Deposit: 'gift' } } });

    expect(set.body).toEqual({ currency: 'USD', money_events: { Deposit: 'deposit' } });
    expect((await api.call('GET', '/console/api/money')).body).toEqual(set.body);
    expect(bad.status).toBe(400);
  });

  test.each(['constructor', '__proto__'])('a money event named %s is a 400 naming it, and the mapping stays as it was', async (name) => {
    const api = consoleRouter();
    await api.admin();

    const response = await api.call('POST', '/console/api/money', { rawBody: `{"money_events": {${JSON.stringify(name)}: "deposit"}}`, headers: json });

    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([expect.stringContaining(JSON.stringify(name))]);
    expect((await api.call('GET', '/console/api/money')).body).toEqual({ currency: 'EUR', money_events: {} });
  });

  test('money events named toString, hasOwnProperty and valueOf are kept and read back', async () => {
    const api = consoleRouter();
    const mapping = { toString: 'deposit', hasOwnProperty: 'bet', valueOf: 'win' };

    const set = await api.call('POST', '/console/api/money', { body: { money_events: mapping } });

    expect(set.status).toBe(200);
    expect((await api.call('GET', '/console/api/money')).body).toEqual({ currency: 'EUR', money_events: mapping });
  });
});

describe('channels only with the senders the operator assigned to the application', () => {
  const create = (body: Record<string, unknown>) => ({ body: { name: 'News', from_name: 'Casino News', ...body } });

  test("refuses another application's address with 400 naming from_email, and creates and audits nothing", async () => {
    const api = consoleRouter();
    api.senders.assignments.push(assignment('app_1', 'news@casino.example'), assignment('app_2', 'security@bank.example'));

    const response = await api.call('POST', '/console/api/channels', create({ from_email: 'security@bank.example' }));

    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([expect.stringMatching(/^from_email must be a sender assigned to the application/)]);
    expect([api.channels.channels, api.audit.entries]).toEqual([[], []]);
  });

  test('refuses an address nobody was assigned with 400 naming from_email', async () => {
    const api = consoleRouter();

    const response = await api.call('POST', '/console/api/channels', create({ from_email: 'news@casino.example' }));

    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([expect.stringMatching(/^from_email /)]);
    expect(api.channels.channels).toEqual([]);
  });

  test('creates a channel with an assigned address, or with any address at an assigned domain', async () => {
    const api = consoleRouter();
    api.senders.assignments.push(assignment('app_1', 'news@casino.example'), assignment('app_1', 'vip.example'));

    const byAddress = await api.call('POST', '/console/api/channels', create({ from_email: 'News@Casino.example' }));
    const byDomain = await api.call('POST', '/console/api/channels', create({ from_email: 'desk@vip.example', from_domain: 'vip.example' }));

    expect([byAddress.status, byDomain.status]).toEqual([201, 201]);
    expect(byDomain.body.channel).toMatchObject({ from_email: 'desk@vip.example', from_domain: 'vip.example' });
  });

  test('refuses from_domain with 400 naming it when only an address at the domain is assigned', async () => {
    const api = consoleRouter();
    api.senders.assignments.push(assignment('app_1', 'news@casino.example'));

    const response = await api.call('POST', '/console/api/channels', create({ from_email: 'news@casino.example', from_domain: 'casino.example' }));

    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([expect.stringMatching(/^from_domain must be a domain assigned to the application/)]);
    expect(api.channels.channels).toEqual([]);
  });

  test('refuses to widen a channel to a domain the application was not assigned, 400 naming from_domain, and the channel stays', async () => {
    const api = consoleRouter();
    api.senders.assignments.push(assignment('app_1', 'news@casino.example'));
    const created = await api.call('POST', '/console/api/channels', create({ from_email: 'news@casino.example' }));

    const widened = await api.call('POST', `/console/api/channels/${created.body.channel.channel_id}`, { body: { from_domain: 'casino.example' } });

    expect(widened.status).toBe(400);
    expect(widened.body.errors).toEqual([expect.stringMatching(/^from_domain /)]);
    expect(api.channels.channels[0]?.from_domain).toBeUndefined();
  });

  test("lists the application's own assigned senders to its admins, and to no one else", async () => {
    const api = consoleRouter();
    api.senders.assignments.push(assignment('app_1', 'news@casino.example'), assignment('app_1', 'vip.example'), assignment('app_2', 'bank.example'));

    const listed = await api.call('GET', '/console/api/senders');
    const byMarketer = await api.call('GET', '/console/api/senders', { as: await api.signIn('marketer') });

    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      senders: [
        { sender: 'news@casino.example', kind: 'address', assigned_at: '2026-01-01T00:00:00.000Z' },
        { sender: 'vip.example', kind: 'domain', assigned_at: '2026-01-01T00:00:00.000Z' },
      ],
    });
    expect(byMarketer.status).toBe(403);
  });
});
