/**
 * One tenant's server key cannot get mail out whose From is another tenant's
 * sender (issue 25, item 1), by any path on the local stack: sign_up (no
 * admins minted by a key), the console's channels, the admin command line on
 * the tenant's application, send_email and the console's email to a player.
 * The victim is the demo application, whose channel sends as
 * demo@example.com, assigned to it by `npm start`.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, jest, test } from '@jest/globals';
import { adminProgram } from '../../bin/admin';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { commandLineActor } from '../../functions/domain/audit';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { consoleRequest, consoleSignIn, type ConsoleSession } from '../support/console';
import { request } from '../support/http';
import { waitFor } from '../support/local-process';
import { testStack, type TestStack } from '../support/local-stack';
import { mailWithSubject } from '../support/mail';

const victimSender = 'demo@example.com';

interface Tenant {
  appId: string;
  serverKey: string;
  commsKey: string;
}

let stack: TestStack;
let attacker: Tenant;
let attackerAdmin: ConsoleSession;

const office = () => localBackOffice(localClients(stack.endpoints).document);
/** A sender domain no other test uses. */
const newDomain = () => `s-${randomUUID().slice(0, 8)}.example`;
const subject = () => `trust-senders ${randomUUID()}`;

async function newTenant(): Promise<Tenant> {
  const app = await createApp(office(), { name: `senders ${randomUUID()}`, portalOrigin: stack.baseUrl });
  const key = async (scope: 'server' | 'comms') => (await issueKey(office(), app.app_id, commandLineActor, scope)).key;
  return { appId: app.app_id, serverKey: await key('server'), commsKey: await key('comms') };
}

/** `npm run admin -- --json …` in this process: what it printed, parsed. A refusal rejects with the use case's error. */
async function admin(...args: string[]): Promise<any> {
  const printed = jest.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await adminProgram()
      .exitOverride()
      .parseAsync(['--data-dir', stack.dataDir, '--json', ...args], { from: 'user' });
    return JSON.parse(printed.mock.calls.map((call) => String(call[0])).join('\n'));
  } finally {
    printed.mockRestore();
  }
}

const consoleApi = (method: 'GET' | 'POST', path: string, body?: unknown, as: ConsoleSession = attackerAdmin) =>
  consoleRequest(stack.baseUrl, as, method, path, body);

const sendEmail = (tenant: Tenant, channelId: string, fields: Record<string, unknown> = {}) =>
  request(stack.baseUrl, 'POST', '/api/send_email', {
    key: tenant.commsKey,
    body: {
      app_id: tenant.appId,
      channel_id: channelId,
      profile_id: 'player-1',
      to_addresses: [{ email: 'ann@example.com', name: 'Ann Lee' }],
      subject: subject(),
      text_body: 'Your account needs attention.',
      ...fields,
    },
  });

/** Nothing this file sent reached the mail store with this subject. */
async function assertNothingSent(sentSubject: string): Promise<void> {
  expect(await mailWithSubject(stack, sentSubject)).toEqual([]);
}

beforeAll(async () => {
  stack = await testStack();
  attacker = await newTenant();
  // The tenant's own first user: its admin, as any application's first sign-up is.
  attackerAdmin = await consoleSignIn(stack.baseUrl, attacker);
}, 60_000);

describe('a server key does not mint console admins', () => {
  test('sign_up with role admin answers 400 naming role, and signs nobody up', async () => {
    const email = `mallory-${randomUUID()}@example.com`;

    const response = await request(stack.baseUrl, 'POST', '/enterprises/sign_up', {
      key: attacker.serverKey,
      body: { app_id: attacker.appId, users: [{ email, first_name: 'Mallory', last_name: 'M', role: 'admin' }] },
    });
    const users = await consoleApi('GET', '/console/api/users');

    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual(['users[0].role must be one of "marketer", "viewer"']);
    expect(users.body.users.map((user: { email: string }) => user.email)).not.toContain(email);
  });

  test('a user signed up without a role on an application that has users is a viewer', async () => {
    const response = await request(stack.baseUrl, 'POST', '/enterprises/sign_up', {
      key: attacker.serverKey,
      body: { app_id: attacker.appId, users: [{ email: `later-${randomUUID()}@example.com`, first_name: 'Later', last_name: 'User' }] },
    });

    expect(response.status).toBe(200);
    expect(response.body.users[0].role).toBe('viewer');
  });
});

describe("the console may not create or change a channel to another tenant's sender", () => {
  test("a channel with the demo application's address answers 400 naming from_email, and none is created", async () => {
    const response = await consoleApi('POST', '/console/api/channels', { name: 'Spoof', from_email: victimSender, from_name: 'urm demo' });
    const channels = await consoleApi('GET', '/console/api/channels');

    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([expect.stringMatching(/^from_email must be a sender assigned to the application/)]);
    expect(channels.body.channels.map((channel: { from_email: string }) => channel.from_email)).not.toContain(victimSender);
  });

  test('a channel naming a domain the tenant holds only an address at answers 400 naming from_domain', async () => {
    const domain = newDomain();
    await admin('sender', 'assign', '--app', attacker.appId, '--email', `news@${domain}`);

    const response = await consoleApi('POST', '/console/api/channels', { name: 'Wide', from_email: `news@${domain}`, from_name: 'N', from_domain: domain });

    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([expect.stringMatching(/^from_domain must be a domain assigned to the application/)]);
  });

  test("widening the tenant's own channel to a domain it does not hold answers 400 naming from_domain, and the channel stays", async () => {
    const domain = newDomain();
    await admin('sender', 'assign', '--app', attacker.appId, '--email', `news@${domain}`);
    const created = await consoleApi('POST', '/console/api/channels', { name: 'Own', from_email: `news@${domain}`, from_name: 'Own' });
    expect(created.status).toBe(201);

    const widened = await consoleApi('POST', `/console/api/channels/${created.body.channel.channel_id}`, { from_domain: domain });

    expect(widened.status).toBe(400);
    expect(widened.body.errors).toEqual([expect.stringMatching(/^from_domain /)]);
    const channels = await consoleApi('GET', '/console/api/channels');
    expect(channels.body.channels.find((c: { channel_id: string }) => c.channel_id === created.body.channel.channel_id).from_domain).toBeUndefined();
  });
});

describe("the admin command line on the tenant's application", () => {
  test("refuses a channel with the demo application's sender", async () => {
    const creating = admin('channel', 'create', '--app', attacker.appId, '--name', 'Spoof', '--from-email', victimSender, '--from-name', 'urm demo');

    await expect(creating).rejects.toMatchObject({ errors: [expect.stringMatching(/^from_email must be a sender assigned to the application/)] });
    expect((await admin('channel', 'list', '--app', attacker.appId)).map((c: { from_email: string }) => c.from_email)).not.toContain(victimSender);
  });

  test("refuses to assign the demo application's sender, or its domain, to the tenant, naming who holds it", async () => {
    await expect(admin('sender', 'assign', '--app', attacker.appId, '--email', 'Demo@Example.com')).rejects.toThrow(
      `demo@example.com is assigned to application ${stack.dev.app_id}`,
    );
    await expect(admin('sender', 'assign', '--app', attacker.appId, '--domain', 'example.com')).rejects.toThrow(
      `demo@example.com is assigned to application ${stack.dev.app_id}`,
    );
    expect(await admin('sender', 'list', '--app', stack.dev.app_id)).toContainEqual(expect.objectContaining({ sender: victimSender, kind: 'address' }));
  });

  test('assigns, lists and releases a sender, each change audited as the command line in the application it was for', async () => {
    const domain = newDomain();

    const assigned = await admin('sender', 'assign', '--app', attacker.appId, '--domain', domain.toUpperCase());
    const listed = await admin('sender', 'list', '--app', attacker.appId);
    await admin('sender', 'release', '--app', attacker.appId, '--domain', domain);
    const audit = await consoleApi('GET', '/console/api/audit?limit=200');

    expect(assigned).toMatchObject({ app_id: attacker.appId, sender: domain, kind: 'domain' });
    expect(listed).toContainEqual(expect.objectContaining({ sender: domain, kind: 'domain' }));
    expect((await admin('sender', 'list', '--app', attacker.appId)).map((s: { sender: string }) => s.sender)).not.toContain(domain);
    const entries = audit.body.entries.filter((entry: { target: string }) => entry.target === `sender:${domain}`);
    expect(entries.map((entry: { action: string; actor: { user_id: string } }) => [entry.action, entry.actor.user_id])).toEqual([
      ['sender.released', 'cli'],
      ['sender.assigned', 'cli'],
    ]);
  });
});

describe('send_email and the console refuse a channel whose sender the tenant does not hold', () => {
  /** A channel written as one made before senders were assigned: nothing checked its sender then. */
  async function legacyChannel(tenant: Tenant, fromEmail: string): Promise<string> {
    const channelId = `ch_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    await office().channels.create({
      app_id: tenant.appId,
      channel_id: channelId,
      name: 'Made before senders were assigned',
      from_email: fromEmail,
      from_name: 'urm demo',
      enabled: true,
      created_at: new Date().toISOString(),
    });
    return channelId;
  }

  test("send_email through a channel with the demo application's sender answers 409, and nothing is sent", async () => {
    const channelId = await legacyChannel(attacker, victimSender);
    const mailSubject = subject();

    const response = await sendEmail(attacker, channelId, { subject: mailSubject });

    expect(response.status).toBe(409);
    expect(response.body.message).toMatch(/demo@example\.com is not assigned to the application/);
    await assertNothingSent(mailSubject);
  });

  test("the console's email to a player through such a channel answers 409, and nothing is sent", async () => {
    const channelId = await legacyChannel(attacker, victimSender);
    await request(stack.baseUrl, 'POST', '/profiles', {
      key: attacker.serverKey,
      body: [{ app_id: attacker.appId, profile_id: 'player-9', urm_date_time: '2026-11-01T00:00:00Z', email: 'ann@example.com' }],
    });
    await waitFor(async () => (await consoleApi('GET', '/console/api/players/player-9')).status === 200, 'the player to be stored', 15_000);
    const mailSubject = subject();

    const response = await consoleApi('POST', '/console/api/players/player-9/email', {
      channel_id: channelId,
      subject: mailSubject,
      text_body: 'Your account needs attention.',
      action_id: randomUUID(),
    });

    expect(response.status).toBe(409);
    expect(response.body.message).toMatch(/demo@example\.com is not assigned to the application/);
    await assertNothingSent(mailSubject);
  });

  test('a released sender stops sending at once; assigned to another application, it sends only for that one', async () => {
    const domain = newDomain();
    const other = await newTenant();
    await admin('sender', 'assign', '--app', attacker.appId, '--email', `news@${domain}`);
    const channel = await admin('channel', 'create', '--app', attacker.appId, '--name', 'News', '--from-email', `news@${domain}`, '--from-name', 'News');
    expect((await sendEmail(attacker, channel.channel_id)).status).toBe(200);

    await admin('sender', 'release', '--app', attacker.appId, '--email', `news@${domain}`);
    const released = await sendEmail(attacker, channel.channel_id);
    await admin('sender', 'assign', '--app', other.appId, '--email', `news@${domain}`);
    const reassigned = await sendEmail(attacker, channel.channel_id);
    const theirs = await admin('channel', 'create', '--app', other.appId, '--name', 'News', '--from-email', `news@${domain}`, '--from-name', 'News');

    expect([released.status, reassigned.status]).toEqual([409, 409]);
    expect((await sendEmail(other, theirs.channel_id)).status).toBe(200);
  });

  test("send_email as the demo application's address through the tenant's own channel stays a 400, and nothing is sent", async () => {
    const domain = newDomain();
    await admin('sender', 'assign', '--app', attacker.appId, '--domain', domain);
    const channel = await admin('channel', 'create', '--app', attacker.appId, '--name', 'Own', '--from-email', `news@${domain}`, '--from-name', 'Own');
    const mailSubject = subject();

    const response = await sendEmail(attacker, channel.channel_id, { from_email: victimSender, subject: mailSubject });

    expect(response.status).toBe(400);
    await assertNothingSent(mailSubject);
  });
});

describe('a sender is claimed by one application only', () => {
  test('of two applications claiming one new domain at once, exactly one holds it', async () => {
    const { assignSender } = await import('../../functions/back-office/senders');
    const [first, second] = [await newTenant(), await newTenant()];
    for (let round = 0; round < 5; round++) {
      const domain = newDomain();

      const outcomes = await Promise.allSettled([
        assignSender(office(), commandLineActor, first.appId, { domain }),
        assignSender(office(), commandLineActor, second.appId, { email: `news@${domain}` }),
        assignSender(office(), commandLineActor, second.appId, { domain }),
      ]);

      const holders = new Set(outcomes.filter((o) => o.status === 'fulfilled').map((o) => (o as PromiseFulfilledResult<{ app_id: string }>).value.app_id));
      expect(holders.size).toBe(1);
      expect(outcomes.filter((o) => o.status === 'rejected').length).toBeGreaterThan(0);
    }
  });
});
