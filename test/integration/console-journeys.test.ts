/**
 * Journeys through the console's API on the local stack, as the console's
 * pages call it: a journey drafted (a refused one first, every problem by its
 * path), published, a player's first deposit sent with the server key puts
 * them in it (the journeys consumer), which the journey's occupancy and the
 * player's journeys show; a changed definition is version 2 while the player
 * keeps version 1; pause and archive; a viewer reads but may not change.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { DynamoTemplateStore } from '../../functions/adapters/dynamo-template-store';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { commandLineActor } from '../../functions/domain/audit';
import { tables } from '../../functions/manifest/resources';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { consoleRequest, consoleSignIn, type ConsoleSession } from '../support/console';
import { request } from '../support/http';
import { welcomeJourney } from '../support/journeys';
import { waitFor } from '../support/local-process';
import { testStack, type TestStack } from '../support/local-stack';
import { emailTemplate, pushTemplate, storedTemplate } from '../support/templates';

let stack: TestStack;
let casino: { appId: string; serverKey: string };
let marketer: ConsoleSession;
let viewer: ConsoleSession;

const definition = welcomeJourney();
const call = (session: ConsoleSession, method: 'GET' | 'POST', path: string, body?: unknown) => consoleRequest(stack.baseUrl, session, method, path, body);

beforeAll(async () => {
  stack = await testStack();
  const office = localBackOffice(localClients(stack.endpoints).document);
  const app = await createApp(office, { name: `journeys ${randomUUID()}`, portalOrigin: stack.baseUrl });
  casino = { appId: app.app_id, serverKey: (await issueKey(office, app.app_id, commandLineActor, 'server')).key };
  const admin = await consoleSignIn(stack.baseUrl, casino);
  marketer = await consoleSignIn(stack.baseUrl, casino, 'marketer');
  viewer = await consoleSignIn(stack.baseUrl, casino, 'viewer');
  expect((await call(admin, 'POST', '/console/api/money', { currency: 'EUR', money_events: { Deposit: 'deposit' } })).status).toBe(200);
  const templates = new DynamoTemplateStore(localClients(stack.endpoints).document, tables.campaigns.localName);
  await templates.create(storedTemplate(casino.appId, emailTemplate()));
  await templates.create(storedTemplate(casino.appId, { ...pushTemplate(), id: 'come-back' }));
}, 60_000);

describe('journeys through the console API', () => {
  test('drafted, published, entered by a first deposit, versioned, paused and archived', async () => {
    const refused = await call(marketer, 'POST', '/console/api/journeys', {
      name: 'Welcome',
      definition: { ...definition, steps: [{ ...definition.steps[0], template_id: 'nope' }, ...definition.steps.slice(1, 3)] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual(['steps[2].then: no step "done"', 'steps[2].else: no step "nudge"']);

    const created = await call(marketer, 'POST', '/console/api/journeys', { name: 'Welcome', definition });
    expect(created.status).toBe(201);
    expect(created.body.journey).toMatchObject({ journey_id: 'welcome', status: 'draft', version: 1, players_now: 0 });
    const published = await call(marketer, 'POST', '/console/api/journeys/welcome/publish');
    expect(published.body.journey.status).toBe('live');

    const record = { app_id: casino.appId, profile_id: 'ada', urm_date_time: new Date().toISOString() };
    expect(
      (await request(stack.baseUrl, 'POST', '/events', { key: casino.serverKey, body: [{ ...record, event: 'Deposit', amount: 50, currency: 'EUR' }] })).status,
    ).toBe(200);
    let players: any[] = [];
    await waitFor(
      async () => {
        players = (await call(viewer, 'GET', '/console/api/players/ada/journeys')).body.journeys;
        // Past the welcome email, the player rests in the two days' wait: occupancy read then is stable.
        return players.length === 1 && players[0].step_id === 'wait-2d';
      },
      "the player's entry, waiting after the welcome email",
      30_000,
    );
    expect(players[0]).toMatchObject({ journey_id: 'welcome', name: 'Welcome', version: 1, status: 'active' });
    const read = await call(viewer, 'GET', '/console/api/journeys/welcome');
    expect(read.body.journey.players_now).toBe(1);
    expect(read.body.journey.occupancy).toEqual([{ version: 1, step_id: 'wait-2d', players: 1 }]);

    const changed = { ...definition, steps: definition.steps.map((step) => (step.id === 'wait-2d' ? { ...step, duration: { days: 3 } } : step)) };
    const edited = await call(marketer, 'POST', '/console/api/journeys/welcome', { definition: changed });
    expect(edited.body.journey).toMatchObject({ status: 'live', version: 2, players_now: 1 });
    expect(edited.body.journey.versions.map((version: any) => [version.version, version.players_now])).toEqual([
      [2, 0],
      [1, 1],
    ]);

    const listed = await call(viewer, 'GET', '/console/api/journeys');
    expect(listed.body.journeys).toEqual([
      { journey_id: 'welcome', name: 'Welcome', status: 'live', version: 2, entry: { first_deposit: true }, players_now: 1, updated_at: expect.any(String) },
    ]);

    const asViewer = await call(viewer, 'POST', '/console/api/journeys/welcome/pause');
    expect(asViewer.status).toBe(403);
    expect((await call(marketer, 'POST', '/console/api/journeys/welcome/pause')).body.journey.status).toBe('paused');
    expect((await call(marketer, 'POST', '/console/api/journeys/welcome/archive')).body.journey.status).toBe('archived');
    expect((await call(marketer, 'POST', '/console/api/journeys/welcome/resume')).status).toBe(409);
    expect((await call(viewer, 'GET', '/console/api/journeys')).body.journeys).toEqual([]);
    expect((await call(viewer, 'GET', '/console/api/journeys?archived=true')).body.journeys).toHaveLength(1);
  }, 90_000);
});
