/**
 * The back office's settings over HTTP on the local stack (keys, the
 * application, channels, VAPID keys, the identity secret, the money mapping),
 * signed in through /enterprises/sign_in and /redirect as a browser is.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { assignSender } from '../../functions/back-office/senders';
import { commandLineActor } from '../../functions/domain/audit';
import { identitySecretName } from '../../functions/domain/identity';
import { vapidPrivateKeySecret } from '../../functions/domain/push';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { consoleRequest, consoleSignIn, type ConsoleSession } from '../support/console';
import { request } from '../support/http';
import { waitFor } from '../support/local-process';
import { testStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
let ours: { appId: string; serverKey: string };
let theirs: { appId: string; serverKey: string; keyId: string };
let admin: ConsoleSession;
let marketer: ConsoleSession;
let viewer: ConsoleSession;

const office = () => localBackOffice(localClients(stack.endpoints).document);

async function newApplication() {
  const app = await createApp(office(), { name: `settings ${randomUUID()}`, portalOrigin: stack.baseUrl });
  const issued = await issueKey(office(), app.app_id, commandLineActor, 'server');
  return { appId: app.app_id, serverKey: issued.key, keyId: issued.summary.key_id };
}

const api = (as: ConsoleSession | null, method: 'GET' | 'POST', path: string, body?: unknown) => consoleRequest(stack.baseUrl, as, method, path, body);

/** A POST with the session's cookie but no X-CSRF-Token. */
const withoutCsrf = (as: ConsoleSession, path: string, body: unknown = {}) => request(stack.baseUrl, 'POST', path, { body, headers: { Cookie: as.cookie } });

const sendEvent = (app: { appId: string }, key: string) =>
  request(stack.baseUrl, 'POST', '/events', {
    key,
    body: [{ app_id: app.appId, profile_id: 'player-1', event: 'login', urm_date_time: new Date().toISOString() }],
  });

/** The admin's audit entries of one action, newest first. */
async function auditEntries(action: string): Promise<{ actor: { user_id: string }; action: string; target: string; details?: Record<string, unknown> }[]> {
  const page = await api(admin, 'GET', '/console/api/audit?limit=200');
  expect(page.status).toBe(200);
  return page.body.entries.filter((entry: { action: string }) => entry.action === action);
}

beforeAll(async () => {
  stack = await testStack();
  const app = await newApplication();
  ours = { appId: app.appId, serverKey: app.serverKey };
  theirs = await newApplication();
  admin = await consoleSignIn(stack.baseUrl, ours);
  marketer = await consoleSignIn(stack.baseUrl, ours, 'marketer');
  viewer = await consoleSignIn(stack.baseUrl, ours, 'viewer');
}, 60_000);

describe('API keys', () => {
  test('an admin issues a key shown once; it ingests; revoked, it gets 403 within the 30 s the key cache keeps it', async () => {
    const issued = await api(admin, 'POST', '/console/api/keys', { scope: 'server' });
    expect(issued.status).toBe(201);
    expect(issued.body).toEqual({
      key: expect.stringMatching(/^urm_server_/),
      key_id: expect.any(String),
      scope: 'server',
      created_at: expect.any(String),
      revoked_at: null,
    });
    const { key, key_id: keyId } = issued.body as { key: string; key_id: string };

    expect((await sendEvent(ours, key)).status).toBe(200);
    const listed = await api(admin, 'GET', '/console/api/keys');
    expect(listed.body.keys).toContainEqual({ key_id: keyId, scope: 'server', created_at: issued.body.created_at, revoked_at: null });
    expect(JSON.stringify(listed.body)).not.toContain(key);
    expect(JSON.stringify(listed.body)).not.toContain('key_hash');

    const revoked = await api(admin, 'POST', `/console/api/keys/${keyId}/revoke`);

    expect(revoked.status).toBe(200);
    expect((await api(admin, 'GET', '/console/api/keys')).body.keys).toContainEqual(expect.objectContaining({ key_id: keyId, revoked_at: expect.any(String) }));
    await waitFor(async () => (await sendEvent(ours, key)).status === 403, 'the revoked key to be refused', 35_000);
  }, 45_000);

  test('a viewer and a marketer are refused listing, issuing and revoking keys with 403 from the server, and nothing changes', async () => {
    const before = (await api(admin, 'GET', '/console/api/keys')).body.keys;

    for (const session of [viewer, marketer]) {
      expect((await api(session, 'GET', '/console/api/keys')).status).toBe(403);
      expect((await api(session, 'POST', '/console/api/keys', { scope: 'server' })).status).toBe(403);
      expect((await api(session, 'POST', `/console/api/keys/${before[0].key_id}/revoke`)).status).toBe(403);
    }

    expect((await api(admin, 'GET', '/console/api/keys')).body.keys).toEqual(before);
  });

  test('issuing and revoking without the CSRF token are 403, and nothing changes', async () => {
    const before = (await api(admin, 'GET', '/console/api/keys')).body.keys;

    const issue = await withoutCsrf(admin, '/console/api/keys', { scope: 'server' });
    const revoke = await withoutCsrf(admin, `/console/api/keys/${before[0].key_id}/revoke`);

    expect([issue.status, issue.body.message, revoke.status]).toEqual([403, 'CSRF token missing or invalid', 403]);
    expect((await api(admin, 'GET', '/console/api/keys')).body.keys).toEqual(before);
  });

  test("another application's key id is not found on revoke, as an unknown one, and that key keeps working", async () => {
    const theirKey = await api(admin, 'POST', `/console/api/keys/${theirs.keyId}/revoke`);
    const unknown = await api(admin, 'POST', `/console/api/keys/key_${randomUUID()}/revoke`);

    expect(theirKey.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect((await sendEvent(theirs, theirs.serverKey)).status).toBe(200);
    expect((await api(admin, 'GET', '/console/api/keys')).body.keys.map((k: { key_id: string }) => k.key_id)).not.toContain(theirs.keyId);
  });

  test('issuing and revoking are audited with who did it and the key id, never the key', async () => {
    const issued = await api(admin, 'POST', '/console/api/keys', { scope: 'comms' });
    await api(admin, 'POST', `/console/api/keys/${issued.body.key_id}/revoke`);

    const [issuedEntry] = await auditEntries('key.issued');
    const [revokedEntry] = await auditEntries('key.revoked');
    expect(issuedEntry).toMatchObject({ actor: { user_id: admin.userId }, target: `key:${issued.body.key_id}`, details: { scope: 'comms' } });
    expect(revokedEntry).toMatchObject({ actor: { user_id: admin.userId }, target: `key:${issued.body.key_id}` });
    expect(JSON.stringify((await api(admin, 'GET', '/console/api/audit?limit=200')).body)).not.toContain(issued.body.key);
  });
});

describe('the application', () => {
  test('reads its settings, with whether an identity secret is set but never the secret', async () => {
    const read = await api(admin, 'GET', '/console/api/app');

    expect(read.status).toBe(200);
    expect(read.body.app).toEqual(
      expect.objectContaining({
        app_id: ours.appId,
        portal_origin: stack.baseUrl,
        identity_verification: 'on',
        identity_secret_set: true,
        affiliate_approval: 'pending',
        affiliate_signup: 'closed',
      }),
    );
    expect(JSON.stringify(read.body)).not.toContain((await office().secrets.get(identitySecretName(ours.appId)))!);
  });

  test('changes what is given, with the same checks as the command line, audited with the changed fields', async () => {
    const invalid = await api(admin, 'POST', '/console/api/app', { site_origins: ['https://shop.example.com/path'] });
    const changed = await api(admin, 'POST', '/console/api/app', { site_origins: ['https://shop.example.com'], affiliate_approval: 'approve' });

    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual(['site origin must be an origin such as https://portal.example.com']);
    expect(changed.status).toBe(200);
    expect(changed.body.app).toMatchObject({ site_origins: ['https://shop.example.com'], affiliate_approval: 'approve', portal_origin: stack.baseUrl });
    const [entry] = await auditEntries('app.updated');
    expect(entry).toMatchObject({
      actor: { user_id: admin.userId },
      target: `app:${ours.appId}`,
      details: { changes: { site_origins: { from: null, to: ['https://shop.example.com'] }, affiliate_approval: { from: null, to: 'approve' } } },
    });
  });

  test('a marketer may not read or change the settings', async () => {
    expect((await api(marketer, 'GET', '/console/api/app')).status).toBe(403);
    expect((await api(marketer, 'POST', '/console/api/app', { name: 'Taken over' })).status).toBe(403);
  });
});

describe('email channels', () => {
  test('an admin creates and disables a channel, audited; a marketer lists them to send from, a viewer may not', async () => {
    // The operator assigns the sender; the console may only use it.
    const domain = `news-${randomUUID().slice(0, 8)}.example`;
    await assignSender(office(), commandLineActor, ours.appId, { email: `news@${domain}` });
    const created = await api(admin, 'POST', '/console/api/channels', { name: 'News', from_email: `news@${domain.toUpperCase()}`, from_name: 'News' });
    const channelId = created.body.channel.channel_id as string;
    const disabled = await api(admin, 'POST', `/console/api/channels/${channelId}`, { enabled: false });

    expect(created.status).toBe(201);
    expect(created.body.channel).toMatchObject({ name: 'News', from_email: `news@${domain}`, enabled: true });
    expect(disabled.body.channel).toMatchObject({ channel_id: channelId, enabled: false });
    const listed = await api(marketer, 'GET', '/console/api/channels');
    expect(listed.status).toBe(200);
    expect(listed.body.channels).toContainEqual(expect.objectContaining({ channel_id: channelId, enabled: false }));
    expect((await api(viewer, 'GET', '/console/api/channels')).status).toBe(403);
    expect((await api(marketer, 'POST', '/console/api/channels', { name: 'Mine', from_email: 'm@example.com', from_name: 'M' })).status).toBe(403);
    expect((await auditEntries('channel.created'))[0]).toMatchObject({ target: `channel:${channelId}`, details: { from_email: `news@${domain}` } });
    expect((await auditEntries('channel.disabled'))[0]).toMatchObject({ target: `channel:${channelId}` });
  });

  test("another application's channel is not found by its id", async () => {
    const theirChannel = await office().channels.listByApp(theirs.appId);
    const id = theirChannel[0]?.channel_id ?? `ch_${randomUUID()}`;

    expect((await api(admin, 'POST', `/console/api/channels/${id}`, { enabled: false })).status).toBe(404);
  });
});

describe('VAPID keys and the identity secret', () => {
  test('generates VAPID keys once (rotating needs rotate: true); the private key is never answered or audited', async () => {
    const before = await api(admin, 'GET', '/console/api/vapid');
    const generated = await api(admin, 'POST', '/console/api/vapid', { subject: 'mailto:push@example.com' });
    const again = await api(admin, 'POST', '/console/api/vapid', {});

    expect(before.body).toEqual({ vapid_public_key: null, vapid_subject: null });
    expect(generated.status).toBe(200);
    expect(generated.body).toEqual({ vapid_public_key: expect.any(String), vapid_subject: 'mailto:push@example.com' });
    expect(again.status).toBe(409);
    expect((await api(admin, 'GET', '/console/api/vapid')).body).toEqual(generated.body);
    const privateKey = (await office().secrets.get(vapidPrivateKeySecret(ours.appId)))!;
    expect(privateKey).toEqual(expect.any(String));
    const audit = JSON.stringify((await api(admin, 'GET', '/console/api/audit?limit=200')).body);
    expect(audit).toContain('vapid.generated');
    expect(audit).not.toContain(privateKey);
  });

  test('rotates the identity secret: the new one is answered once, stored, and audited without it', async () => {
    const rotated = await api(admin, 'POST', '/console/api/identity_secret');
    const withoutToken = await withoutCsrf(admin, '/console/api/identity_secret');

    expect(rotated.status).toBe(200);
    expect(rotated.body.identity_secret).toEqual(await office().secrets.get(identitySecretName(ours.appId)));
    expect(withoutToken.status).toBe(403);
    expect((await api(marketer, 'POST', '/console/api/identity_secret')).status).toBe(403);
    expect((await auditEntries('identity_secret.rotated'))[0]).toMatchObject({ actor: { user_id: admin.userId }, target: `app:${ours.appId}` });
    expect(JSON.stringify((await api(admin, 'GET', '/console/api/audit?limit=200')).body)).not.toContain(rotated.body.identity_secret);
  });
});

describe('the money mapping', () => {
  test("sets the currency and mapping with setMoneySettings' checks, audited", async () => {
    const invalid = await api(admin, 'POST', '/console/api/money', { money_events: { Deposit: 'gift' } });
    const set = await api(admin, 'POST', '/console/api/money', { currency: 'USD', money_events: { Deposit: 'deposit', Bet: 'bet' } });

    expect(invalid.status).toBe(400);
    expect(set.status).toBe(200);
    expect((await api(admin, 'GET', '/console/api/money')).body).toEqual({ currency: 'USD', money_events: { Deposit: 'deposit', Bet: 'bet' } });
    expect((await auditEntries('money.updated'))[0]).toMatchObject({
      details: { changes: { currency: { from: 'EUR', to: 'USD' }, money_events: { from: {}, to: { Deposit: 'deposit', Bet: 'bet' } } } },
    });
    expect((await api(viewer, 'GET', '/console/api/money')).status).toBe(403);
  });
});
