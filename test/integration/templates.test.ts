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
import { beforeAll, describe, expect, jest, test } from '@jest/globals';
import { adminProgram } from '../../bin/admin';
import { createApp } from '../../functions/back-office/apps';
import { createChannel } from '../../functions/back-office/channels';
import { issueKey } from '../../functions/back-office/keys';
import { assignSender } from '../../functions/back-office/senders';
import { commandLineActor } from '../../functions/domain/audit';
import { localBackOffice, localClients } from '../../lib/local/stack';
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

async function cli(...args: string[]): Promise<any> {
  const printed = jest.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await adminProgram()
      .exitOverride()
      .parseAsync(['--data-dir', stack.dataDir, '--json', ...args], { from: 'user' });
    return JSON.parse(String(printed.mock.calls.at(-1)?.[0]));
  } finally {
    printed.mockRestore();
  }
}

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
