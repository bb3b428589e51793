/** The console's journeys routes (functions/console/journeys) through the router: roles, CSRF, bodies, versions, status changes, a player's journeys. */
import { describe, expect, test } from '@jest/globals';
import { consoleRouter } from '../../support/console-router';
import { welcomeJourney } from '../../support/journeys';
import { emailTemplate, pushTemplate, storedTemplate } from '../../support/templates';

const definition = welcomeJourney();

/** The console over fakes, with the two templates the welcome journey sends. */
async function withTemplates() {
  const api = consoleRouter();
  await api.templates.create(storedTemplate('app_1', emailTemplate()));
  await api.templates.create(storedTemplate('app_1', { ...pushTemplate(), id: 'come-back' }));
  return api;
}

async function created(api: Awaited<ReturnType<typeof withTemplates>>, name = 'Welcome') {
  const response = await api.call('POST', '/console/api/journeys', { body: { name, definition } });
  expect(response.status).toBe(201);
  return response.body.journey;
}

describe('POST /console/api/journeys', () => {
  test('a marketer drafts a journey: 201 at version 1 with its id from the name, listed with its entry and nobody in it', async () => {
    const api = await withTemplates();
    const marketer = await api.signIn('marketer');

    const response = await api.call('POST', '/console/api/journeys', { as: marketer, body: { name: 'First deposit welcome', definition } });
    const listed = await api.call('GET', '/console/api/journeys', { as: marketer });

    expect(response.status).toBe(201);
    expect(response.body.journey).toMatchObject({ journey_id: 'first-deposit-welcome', status: 'draft', version: 1, definition, players_now: 0 });
    expect(response.body.journey.versions).toMatchObject([{ version: 1, created_by: 'marketer@example.com', players_now: 0 }]);
    expect(listed.body.journeys).toMatchObject([
      { journey_id: 'first-deposit-welcome', name: 'First deposit welcome', status: 'draft', version: 1, entry: { first_deposit: true }, players_now: 0 },
    ]);
    expect(api.audit.entries.map((entry) => [entry.action, entry.target])).toEqual([['journey.created', 'journey:first-deposit-welcome']]);
  });

  test('a journey with several problems is 400 listing every one by its path, and nothing is made', async () => {
    const api = await withTemplates();
    const broken = {
      entry: { first_deposit: true },
      steps: [
        { id: 'welcome', type: 'send', channel: 'email', template_id: 'welcome', next: 'nowhere' },
        { id: 'split', type: 'split', branches: [{ percent: 50, next: 'welcome' }], holdout_percent: 10 },
      ],
    };

    const response = await api.call('POST', '/console/api/journeys', { body: { name: 'Broken', definition: broken } });

    expect(response.status).toBe(400);
    expect(response.body.message).toBe('journey is invalid');
    expect(response.body.errors).toEqual([
      'steps[0].next: no step "nowhere"',
      "steps[1]: the branches' percent and holdout_percent add up to 60; they must add up to 100",
    ]);
    expect(api.journeys.heads.size).toBe(0);
  });

  test('a send step naming a template the application does not have is 400 naming the step', async () => {
    const api = consoleRouter();

    const response = await api.call('POST', '/console/api/journeys', { body: { name: 'Welcome', definition } });

    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual(['steps[0].template_id: no template "welcome"', 'steps[3].template_id: no template "come-back"']);
  });

  test('a definition that is not the schema is 400 naming the path', async () => {
    const api = await withTemplates();

    const response = await api.call('POST', '/console/api/journeys', {
      body: { name: 'Bad wait', definition: { entry: { first_deposit: true }, steps: [{ id: 'w', type: 'wait', duration: { days: 400 } }] } },
    });

    expect(response.status).toBe(400);
    expect(response.body.errors.join(' ')).toMatch(/^steps\[0\]\.duration\.days/);
  });

  test('a taken id is 409; "new", the form\'s address, is refused', async () => {
    const api = await withTemplates();
    await created(api);

    const again = await api.call('POST', '/console/api/journeys', { body: { name: 'Welcome', definition } });
    const reserved = await api.call('POST', '/console/api/journeys', { body: { name: 'New', definition } });

    expect(again.status).toBe(409);
    expect(reserved.status).toBe(400);
    expect(reserved.body.errors).toEqual(['journey_id new is reserved: give another']);
  });

  test('a viewer is refused (403); a call without the CSRF token too; nothing is made', async () => {
    const api = await withTemplates();
    const viewer = await api.signIn('viewer');

    const asViewer = await api.call('POST', '/console/api/journeys', { as: viewer, body: { name: 'X1', definition } });
    const noCsrf = await api.call('POST', '/console/api/journeys', { csrf: false, body: { name: 'X1', definition } });

    expect([asViewer.status, noCsrf.status]).toEqual([403, 403]);
    expect(api.journeys.heads.size).toBe(0);
  });

  test('a body over the bound is refused before any read', async () => {
    const api = await withTemplates();
    const huge = { name: 'Huge', definition: { ...definition, padding: 'x'.repeat(80 * 1024) } };

    const response = await api.call('POST', '/console/api/journeys', { body: huge });

    expect(response.status).toBe(413);
    expect(api.journeys.calls).toEqual({});
  });
});

describe('one journey', () => {
  test('a viewer reads a journey with its definition, versions and occupancy, but may not change it', async () => {
    const api = await withTemplates();
    await created(api);
    const viewer = await api.signIn('viewer');

    const read = await api.call('GET', '/console/api/journeys/welcome', { as: viewer });
    const pause = await api.call('POST', '/console/api/journeys/welcome/publish', { as: viewer });

    expect(read.status).toBe(200);
    expect(read.body.journey).toMatchObject({ journey_id: 'welcome', name: 'Welcome', definition, occupancy: [] });
    expect(pause.status).toBe(403);
  });

  test('an unknown journey, or an id that cannot be one, is 404 on every route', async () => {
    const api = await withTemplates();
    await api.admin();

    const answers = await Promise.all([
      api.call('GET', '/console/api/journeys/nope'),
      api.call('GET', '/console/api/journeys/N%20O'),
      api.call('POST', '/console/api/journeys/nope', { body: { name: 'X' } }),
      api.call('POST', '/console/api/journeys/nope/publish'),
      api.call('POST', '/console/api/journeys/nope/archive'),
    ]);

    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404]);
  });

  test('publish, pause, resume and archive move the status; a move from the wrong status is 409', async () => {
    const api = await withTemplates();
    await created(api);

    const statuses: string[] = [];
    for (const action of ['publish', 'pause', 'resume', 'pause', 'archive']) {
      const response = await api.call('POST', `/console/api/journeys/welcome/${action}`);
      expect(response.status).toBe(200);
      statuses.push(response.body.journey.status);
    }
    const resumeArchived = await api.call('POST', '/console/api/journeys/welcome/resume');
    const publishAgain = await api.call('POST', '/console/api/journeys/welcome/publish');

    expect(statuses).toEqual(['live', 'paused', 'live', 'paused', 'archived']);
    expect([resumeArchived.status, publishAgain.status]).toEqual([409, 409]);
    expect(resumeArchived.body.message).toBe('a archived journey cannot be made live');
    expect(api.audit.entries.map((entry) => entry.action)).toEqual([
      'journey.created',
      'journey.published',
      'journey.paused',
      'journey.resumed',
      'journey.paused',
      'journey.archived',
    ]);
  });

  test('editing a live journey makes a new version; the old one stays readable and keeps its players', async () => {
    const api = await withTemplates();
    await created(api);
    await api.call('POST', '/console/api/journeys/welcome/publish');
    await api.journeys.enter(
      {
        app_id: 'app_1',
        instance: {
          journeyId: 'welcome',
          version: 1,
          profileId: 'p-1',
          entryId: 'e-1',
          stepId: 'wait-2d',
          enteredAt: '2026-11-21T09:00:00.000Z',
          entryProperties: {},
        },
        revision: 0,
        updated_at: '2026-11-21T09:00:00.000Z',
      },
      0,
    );
    const changed = { ...definition, steps: definition.steps.map((step) => (step.id === 'wait-2d' ? { ...step, duration: { days: 3 } } : step)) };

    const edit = await api.call('POST', '/console/api/journeys/welcome', { body: { definition: changed } });
    const renamed = await api.call('POST', '/console/api/journeys/welcome', { body: { name: 'Welcome series' } });

    expect(edit.status).toBe(200);
    expect(edit.body.journey).toMatchObject({ status: 'live', version: 2, definition: changed, players_now: 1 });
    expect(edit.body.journey.versions).toMatchObject([
      { version: 2, players_now: 0 },
      { version: 1, players_now: 1 },
    ]);
    expect(edit.body.journey.occupancy).toEqual([{ version: 1, step_id: 'wait-2d', players: 1 }]);
    expect(renamed.body.journey).toMatchObject({ name: 'Welcome series', version: 2 });
    expect((await api.journeys.version('app_1', 'welcome', 1))?.definition).toEqual(definition);
  });

  test('an archived journey cannot be edited (409)', async () => {
    const api = await withTemplates();
    await created(api);
    await api.call('POST', '/console/api/journeys/welcome/archive');

    const response = await api.call('POST', '/console/api/journeys/welcome', { body: { name: 'Again' } });

    expect(response.status).toBe(409);
  });

  test('archived journeys are listed only when asked', async () => {
    const api = await withTemplates();
    await created(api, 'Welcome');
    await created(api, 'Win back');
    await api.call('POST', '/console/api/journeys/win-back/archive');

    const current = await api.call('GET', '/console/api/journeys');
    const all = await api.call('GET', '/console/api/journeys?archived=true');
    const bad = await api.call('GET', '/console/api/journeys?archived=maybe');

    expect(current.body.journeys.map((journey: { journey_id: string }) => journey.journey_id)).toEqual(['welcome']);
    expect(all.body.journeys.map((journey: { journey_id: string }) => journey.journey_id).sort()).toEqual(['welcome', 'win-back']);
    expect(bad.status).toBe(400);
  });
});

describe('GET /console/api/players/{profile_id}/journeys', () => {
  test("a player's entries: where they are, how one ended, and what each sent them", async () => {
    const api = await withTemplates();
    await created(api);
    const base = { journeyId: 'welcome', version: 1, profileId: 'p-1', entryProperties: {} };
    const first = { ...base, entryId: 'e-1', stepId: 'wait-2d', enteredAt: '2026-10-01T09:00:00.000Z', visits: { welcome: 1 } };
    await api.journeys.enter({ app_id: 'app_1', instance: first, revision: 0, updated_at: '2026-10-01T09:00:00.000Z' }, 0);
    await api.journeys.move(
      {
        app_id: 'app_1',
        instance: { ...first, done: { reason: 'converted', at: '2026-10-02T09:00:00.000Z' } },
        revision: 1,
        updated_at: '2026-10-02T09:00:00.000Z',
      },
      'wait-2d',
    );
    await api.journeys.enter(
      {
        app_id: 'app_1',
        instance: {
          ...base,
          entryId: 'e-2',
          stepId: 'wait-2d',
          enteredAt: '2026-11-20T09:00:00.000Z',
          waitingUntil: '2026-11-22T09:00:00.000Z',
          visits: { welcome: 1 },
        },
        revision: 0,
        updated_at: '2026-11-20T09:00:00.000Z',
      },
      1,
    );

    const response = await api.call('GET', '/console/api/players/p-1/journeys', { as: await api.signIn('viewer') });
    const nobody = await api.call('GET', '/console/api/players/p-2/journeys');

    expect(response.status).toBe(200);
    expect(response.body.journeys).toEqual([
      {
        journey_id: 'welcome',
        name: 'Welcome',
        version: 1,
        entry_id: 'e-2',
        entered_at: '2026-11-20T09:00:00.000Z',
        step_id: 'wait-2d',
        status: 'active',
        waiting_until: '2026-11-22T09:00:00.000Z',
        sends: [{ step_id: 'welcome', channel: 'email', template_id: 'welcome' }],
      },
      expect.objectContaining({ entry_id: 'e-1', status: 'done', done: { reason: 'converted', at: '2026-10-02T09:00:00.000Z' } }),
    ]);
    expect(nobody.body).toEqual({ journeys: [] });
  });
});
