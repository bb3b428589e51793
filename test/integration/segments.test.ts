/**
 * Segments over HTTP on the local stack: the console's routes as a signed-in
 * browser calls them, and the two integrator operations as a server calls
 * them. Members are arranged in the segments table as the segment engine
 * writes them (functions/domain/segments/model.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, jest, test } from '@jest/globals';
import { adminProgram } from '../../bin/admin';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { commandLineActor } from '../../functions/domain/audit';
import { definitionPk, memberPk, sizeSk } from '../../functions/domain/segments/model';
import { tables } from '../../functions/manifest/resources';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { consoleRequest, consoleSignIn, type ConsoleSession } from '../support/console';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
let app: { appId: string; serverKey: string; browserKey: string };
let admin: ConsoleSession;
let viewer: ConsoleSession;

const condition = { events: { name: 'Deposit' }, measure: 'count', op: 'gte', value: 2, within_days: 30 };
const api = (as: ConsoleSession | null, method: 'GET' | 'POST', path: string, body?: unknown) => consoleRequest(stack.baseUrl, as, method, path, body);
const server = (path: string, key = app.serverKey) => request(stack.baseUrl, 'GET', path, { key });

/** Members and the size as the segment engine leaves them. */
async function arrangeMembers(segmentId: string, profileIds: string[]) {
  const db = localClients(stack.endpoints).document;
  const TableName = tables.segments.localName;
  for (const profileId of profileIds) {
    await db.send(new PutCommand({ TableName, Item: { pk: memberPk(app.appId, segmentId), sk: profileId, entered_at: '2026-11-21T10:00:00.000Z' } }));
  }
  await db.send(new PutCommand({ TableName, Item: { pk: definitionPk(app.appId), sk: sizeSk(segmentId, 0), n: profileIds.length } }));
}

beforeAll(async () => {
  stack = await testStack();
  const office = localBackOffice(localClients(stack.endpoints).document);
  const made = await createApp(office, { name: `segments ${randomUUID()}`, portalOrigin: stack.baseUrl });
  app = {
    appId: made.app_id,
    serverKey: (await issueKey(office, made.app_id, commandLineActor, 'server')).key,
    browserKey: (await issueKey(office, made.app_id, commandLineActor, 'browser')).key,
  };
  admin = await consoleSignIn(stack.baseUrl, app);
  viewer = await consoleSignIn(stack.baseUrl, app, 'viewer');
});

describe('the console', () => {
  test('an admin creates a segment, a viewer reads it; a viewer may not create one, nor anyone without the CSRF token', async () => {
    const created = await api(admin, 'POST', '/console/api/segments', { segment_id: 'depositors', name: 'Depositors', condition });
    const asViewer = await api(viewer, 'POST', '/console/api/segments', { name: 'Nope', condition });
    const noCsrf = await request(stack.baseUrl, 'POST', '/console/api/segments', { headers: { Cookie: admin.cookie }, body: { name: 'Nope', condition } });
    const read = await api(viewer, 'GET', '/console/api/segments/depositors');

    expect(created.status).toBe(201);
    expect(created.body.segment).toMatchObject({ segment_id: 'depositors', status: 'backfilling', version: 1 });
    expect([asViewer.status, noCsrf.status]).toEqual([403, 403]);
    expect(read.body.segment).toMatchObject({ segment_id: 'depositors', name: 'Depositors', condition });
  });

  test("an invalid condition is a 400 naming the node's path; an unknown segment a 404", async () => {
    const invalid = await api(admin, 'POST', '/console/api/segments', { name: 'Bad', condition: { not: { last: { name: 'Login' }, within_days: 400 } } });
    const unknown = await api(admin, 'GET', '/console/api/segments/never-made');

    expect([invalid.status, invalid.body]).toEqual([400, { message: 'condition is invalid', errors: ['condition.not.within_days must be <= 365'] }]);
    expect([unknown.status, unknown.body]).toEqual([404, { message: 'no segment with this id' }]);
  });

  test('the members page and the CSV show the arranged members', async () => {
    await api(admin, 'POST', '/console/api/segments', { segment_id: 'console-members', name: 'Console members', condition });
    await arrangeMembers('console-members', ['p-1', 'p-2']);

    const members = await api(viewer, 'GET', '/console/api/segments/console-members/members?limit=1');
    const csv = await fetch(`${stack.baseUrl}/console/api/segments/console-members/members.csv`, { headers: { Cookie: viewer.cookie } });

    expect(members.body).toMatchObject({ members: [{ profile_id: 'p-1', name: null, deposits: '0' }], next_cursor: expect.any(String) });
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="segment-console-members.csv"');
    expect(
      (await csv.text())
        .split('\r\n')
        .slice(1, 3)
        .map((line) => line.split(',')[0]),
    ).toEqual(['p-1', 'p-2']);
  });
});

describe('the integrator API', () => {
  beforeAll(async () => {
    await api(admin, 'POST', '/console/api/segments', { segment_id: 'api-members', name: 'API members', condition });
    await arrangeMembers(
      'api-members',
      Array.from({ length: 5 }, (_, i) => `player-${i}`),
    );
  });

  test('GET /api/segments lists the segments with their sizes for the server key', async () => {
    const listed = await server('/api/segments');

    expect(listed.status).toBe(200);
    expect(listed.body.segments).toEqual(
      expect.arrayContaining([expect.objectContaining({ segment_id: 'api-members', name: 'API members', size: 5, status: 'backfilling', version: 1 })]),
    );
  });

  test('members come a page at a time, every member once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const page = await server(`/api/segments/api-members/members?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.members.map((member: { profile_id: string }) => member.profile_id));
      cursor = page.body.next_cursor;
      if (cursor === null) break;
    }

    expect(seen).toEqual(['player-0', 'player-1', 'player-2', 'player-3', 'player-4']);
  });

  test("another segment's cursor is a 400; an unknown or archived segment a 404", async () => {
    await api(admin, 'POST', '/console/api/segments', { segment_id: 'to-archive', name: 'To archive', condition });
    await api(admin, 'POST', '/console/api/segments/to-archive/archive');
    const first = await server('/api/segments/console-members/members?limit=1');

    const foreign = await server(`/api/segments/api-members/members?cursor=${encodeURIComponent(first.body.next_cursor)}`);
    const unknown = await server('/api/segments/never-made/members');
    const archived = await server('/api/segments/to-archive/members');

    expect([foreign.status, foreign.body.errors]).toEqual([400, ['cursor is not one this segment gave']]);
    expect([unknown.status, archived.status]).toEqual([404, 404]);
    expect((await server('/api/segments')).body.segments.map((segment: { segment_id: string }) => segment.segment_id)).not.toContain('to-archive');
  });

  test('the browser key is refused both operations', async () => {
    const listed = await server('/api/segments', app.browserKey);
    const members = await server('/api/segments/api-members/members', app.browserKey);

    expect([listed.status, members.status]).toEqual([403, 403]);
  });
});

/** `npm run admin -- --json …` against the test stack, in this process (what it prints is its answer). */
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

describe('the admin command line', () => {
  test('creates a segment from a file, changes its condition (a new version), lists, shows, pages and exports members, and archives it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'urm-segments-'));
    writeFileSync(join(dir, 'condition.json'), JSON.stringify({ last: { name: 'Login' }, not_within_days: 7 }));

    const created = await cli('segments', 'create', '--app', app.appId, '--name', 'Lapsed', '--condition', `@${join(dir, 'condition.json')}`);
    const edited = await cli(
      'segments',
      'edit',
      '--app',
      app.appId,
      '--segment',
      'lapsed',
      '--condition',
      '{"last": {"name": "Login"}, "not_within_days": 14}',
    );
    await arrangeMembers('lapsed', ['p-a', 'p-b', 'p-c']);
    const listed = await cli('segments', 'list', '--app', app.appId);
    const shown = await cli('segments', 'show', '--app', app.appId, '--segment', 'lapsed');
    const page = await cli('segments', 'members', '--app', app.appId, '--segment', 'lapsed', '--limit', '2');
    await cli('segments', 'export', '--app', app.appId, '--segment', 'lapsed', '--out', join(dir, 'lapsed.csv'));
    const archived = await cli('segments', 'archive', '--app', app.appId, '--segment', 'lapsed');

    expect(created).toMatchObject({ segment_id: 'lapsed', version: 1, status: 'backfilling' });
    expect(edited).toMatchObject({ version: 2, condition: { last: { name: 'Login' }, not_within_days: 14 } });
    expect(listed.map((segment: { segment_id: string }) => segment.segment_id)).toContain('lapsed');
    expect(shown).toMatchObject({ segment_id: 'lapsed', size: 3 });
    expect(page.members.map((member: { profile_id: string }) => member.profile_id)).toEqual(['p-a', 'p-b']);
    expect(
      readFileSync(join(dir, 'lapsed.csv'), 'utf8')
        .split('\r\n')
        .slice(1, -1)
        .map((line) => line.split(',')[0]),
    ).toEqual(['p-a', 'p-b', 'p-c']);
    expect(archived).toMatchObject({ status: 'archived' });
  });
});
