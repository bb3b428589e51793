/**
 * Templates over HTTP on the local stack, as an operator works with them: the
 * console's routes with a signed-in session (create, change with the version
 * read, preview against a real player, test send to the operator's own
 * address in the local SES store), and the admin command line.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { createApp } from '../../functions/back-office/apps';
import { createChannel } from '../../functions/back-office/channels';
import { issueKey } from '../../functions/back-office/keys';
import { assignSender } from '../../functions/back-office/senders';
import { commandLineActor } from '../../functions/domain/audit';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { adminInProcess } from '../support/admin-in-process';
import { consoleRequest, consoleSignIn, type ConsoleSession } from '../support/console';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';
import { sentMail } from '../support/mail';
import { until } from '../support/profiles';

let stack: TestStack;
let app: { appId: string; serverKey: string };
let admin: ConsoleSession;
let viewer: ConsoleSession;

const welcome = {
  id: 'welcome',
  name: 'Welcome',
  kind: 'email',
  default_language: 'en',
  variants: {
    en: { subject: 'Welcome {{ player.first_name | default: "there" }}', html: '<p>Your {{ event.amount }} EUR bonus waits at {{ app.name }}</p>' },
    de: { subject: 'Willkommen {{ player.first_name | default: "du" }}', html: '<p>Dein Bonus: {{ event.amount }} EUR</p>' },
  },
};

const api = (as: ConsoleSession | null, method: 'GET' | 'POST', path: string, body?: unknown) => consoleRequest(stack.baseUrl, as, method, path, body);

/** A player with these attributes, once the stream has applied them. */
async function player(profileId: string, attributes: Record<string, unknown>) {
  const sent = await request(stack.baseUrl, 'POST', '/profiles', {
    key: app.serverKey,
    body: [{ app_id: app.appId, profile_id: profileId, urm_date_time: '2026-11-01T00:00:00Z', urm_set: attributes }],
  });
  expect(sent.status).toBe(200);
  await until(
    () => request(stack.baseUrl, 'GET', `/profiles/${profileId}?app_id=${app.appId}`, { key: app.serverKey }),
    (read) => read.status === 200,
    `player ${profileId}`,
  );
}

/** The command line's answer, as JSON. */
const cli = async (...args: string[]): Promise<any> => JSON.parse(await adminInProcess(stack.dataDir, '--json', ...args));

beforeAll(async () => {
  stack = await testStack();
  const office = localBackOffice(localClients(stack.endpoints).document);
  const made = await createApp(office, { name: `templates ${randomUUID()}`, portalOrigin: stack.baseUrl });
  const fromEmail = `news@casino-${randomUUID().slice(0, 8)}.example`;
  await assignSender(office, commandLineActor, made.app_id, { email: fromEmail });
  await createChannel(office, commandLineActor, { appId: made.app_id, name: 'News', fromEmail, fromName: 'Casino News' });
  app = { appId: made.app_id, serverKey: (await issueKey(office, made.app_id, commandLineActor, 'server')).key };
  admin = await consoleSignIn(stack.baseUrl, app);
  viewer = await consoleSignIn(stack.baseUrl, app, 'viewer');
  await player('p-de', { first_name: 'Jonas', urm_language: 'de-AT', email: 'jonas@example.com' });
});

describe('the console', () => {
  test('an admin creates a template and a viewer reads it; a viewer may not create one, nor anyone without the CSRF token', async () => {
    const created = await api(admin, 'POST', '/console/api/templates', welcome);
    const asViewer = await api(viewer, 'POST', '/console/api/templates', { ...welcome, id: 'nope' });
    const noCsrf = await request(stack.baseUrl, 'POST', '/console/api/templates', { headers: { Cookie: admin.cookie }, body: { ...welcome, id: 'nope' } });
    const read = await api(viewer, 'GET', '/console/api/templates/welcome');

    expect([created.status, created.body.template.version]).toEqual([201, 1]);
    expect([asViewer.status, noCsrf.status]).toEqual([403, 403]);
    expect(read.body.template.template).toEqual(welcome);
  });

  test('a template that does not parse is a 400 naming each problem; a change on a stale version is a 409', async () => {
    await api(admin, 'POST', '/console/api/templates', { ...welcome, id: 'versions' });
    await api(admin, 'POST', '/console/api/templates/versions', { version: 1, template: { ...welcome, id: 'versions', name: 'First' } });

    const invalid = await api(admin, 'POST', '/console/api/templates', {
      ...welcome,
      id: 'bad',
      default_language: 'fr',
      variants: { en: { subject: '{{ x | shout }}', html: 'x' } },
    });
    const stale = await api(admin, 'POST', '/console/api/templates/versions', { version: 1, template: { ...welcome, id: 'versions', name: 'Second' } });

    expect([invalid.status, invalid.body.errors]).toEqual([
      400,
      ['default_language "fr" must have a variant', 'variants.en.subject: unknown filter "shout" (line 1, col 1)'],
    ]);
    expect([stale.status, stale.body.message]).toEqual([
      409,
      'someone else changed this template meanwhile (it is at version 2 now): reload it and make your change again',
    ]);
  });

  test('a viewer previews a draft for a real player: the variant their urm_language picks, and why', async () => {
    const preview = await api(viewer, 'POST', '/console/api/template-previews', { template: welcome, profile_id: 'p-de', data: { amount: 50 } });

    expect(preview.status).toBe(200);
    expect(preview.body.preview).toMatchObject({
      language: 'de',
      why: 'urm_language de-AT has no variant; the broader de has one',
      subject: 'Willkommen Jonas',
      html: '<p>Dein Bonus: 50 EUR</p>',
    });
  });

  test("a test send lands in the mail store at the signed-in user's own address, not the player's", async () => {
    const operator = (await api(admin, 'GET', '/console/api/session')).body.user.email as string;

    const sent = await api(admin, 'POST', '/console/api/template-test-sends', { template: welcome, profile_id: 'p-de', data: { amount: 7 } });

    expect([sent.status, sent.body.sent.to]).toEqual([200, operator]);
    const mail = await until(
      async () => (await sentMail(stack)).filter((found) => found.messageId === sent.body.sent.message_id),
      (found) => found.length === 1,
      'the test mail',
    );
    expect(mail[0]).toMatchObject({ destination: { to: [operator] }, subject: '[Test] Willkommen Jonas', body: { html: '<p>Dein Bonus: 7 EUR</p>' } });
  });
});

describe('the admin command line', () => {
  test('puts a template from a file (created, then changed), lists, shows, previews it for a player, archives and restores it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'urm-templates-'));
    const file = join(dir, 'template.json');
    writeFileSync(file, JSON.stringify({ ...welcome, id: 'cli-welcome' }));
    const created = await cli('templates', 'put', app.appId, '--file', file);
    writeFileSync(file, JSON.stringify({ ...welcome, id: 'cli-welcome', name: 'Welcome, changed' }));
    const changed = await cli('templates', 'put', app.appId, '--file', file);

    const listed = await cli('templates', 'list', app.appId);
    const shown = await cli('templates', 'show', app.appId, 'cli-welcome');
    const preview = await cli('templates', 'preview', app.appId, 'cli-welcome', '--profile', 'p-de', '--data', '{"amount": 50}');
    const archived = await cli('templates', 'archive', app.appId, 'cli-welcome');
    const listedAfter = await cli('templates', 'list', app.appId);
    const restored = await cli('templates', 'restore', app.appId, 'cli-welcome');

    expect([created.version, changed.version, changed.name]).toEqual([1, 2, 'Welcome, changed']);
    expect(listed.find((found: { id: string }) => found.id === 'cli-welcome')).toMatchObject({ kind: 'email', languages: ['en', 'de'] });
    expect(shown.template).toEqual({ ...welcome, id: 'cli-welcome', name: 'Welcome, changed' });
    expect(preview).toMatchObject({ language: 'de', language_reason: 'broader', subject: 'Willkommen Jonas', html: '<p>Dein Bonus: 50 EUR</p>' });
    expect(archived.archived).toBe(true);
    expect(listedAfter.map((found: { id: string }) => found.id)).not.toContain('cli-welcome');
    expect([restored.archived, restored.version]).toEqual([false, 4]);
  });

  test('a template with an unknown filter is refused with the problem named, and nothing is stored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'urm-templates-'));
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ ...welcome, id: 'cli-bad', variants: { en: { subject: '{{ player.name | shout }}', html: '<p>x</p>' } } }));

    const refused = cli('templates', 'put', app.appId, '--file', file);

    await expect(refused).rejects.toMatchObject({ errors: [expect.stringContaining('unknown filter "shout"')] });
    await expect(cli('templates', 'show', app.appId, 'cli-bad')).rejects.toMatchObject({ name: 'NotFound' });
  });
});
