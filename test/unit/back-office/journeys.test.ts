/** The back office's journeys over fakes: create, versions on edit, status moves, occupancy, a player's journeys. */
import { describe, expect, test } from '@jest/globals';
import { createJourney, editJourney, getJourney, moveJourney, playerJourneys } from '../../../functions/back-office/journeys';
import { Conflict, NotFound, ValidationError } from '../../../functions/domain/errors';
import { newInstance } from '../../../functions/domain/journeys/engine';
import { MemoryAuditLog } from '../../support/enterprise';
import { MemoryJourneyStore } from '../../support/journey-store';
import { journeyEvent, version, welcomeJourney } from '../../support/journeys';
import { MemoryTemplateStore, emailTemplate, storedTemplate } from '../../support/templates';

const ada = { user_id: 'usr_ada', email: 'ada@casino.example' };
const APP = 'casino';

async function setUp() {
  const journeys = new MemoryJourneyStore();
  const audit = new MemoryAuditLog();
  const templates = new MemoryTemplateStore();
  for (const id of ['welcome', 'come-back']) await templates.create(storedTemplate(APP, { ...emailTemplate(), id }));
  const ports = { journeys, audit, templates, now: () => new Date('2026-11-27T10:00:00Z') };
  return { ports, journeys, audit };
}

describe('journeys in the back office', () => {
  test('a new journey is a draft at version 1, its id made from its name, and audited', async () => {
    const { ports, audit } = await setUp();

    const created = await createJourney(ports)(APP, ada, { name: 'First deposit welcome', definition: welcomeJourney() });

    expect(created).toMatchObject({ journey_id: 'first-deposit-welcome', status: 'draft', version: 1, occupancy: [] });
    expect(audit.entries).toMatchObject([{ action: 'journey.created', target: 'journey:first-deposit-welcome', actor: ada }]);
  });

  test('a definition naming a template the application lacks is refused with the path', async () => {
    const { ports } = await setUp();
    const definition = welcomeJourney();
    definition.steps[3] = { id: 'nudge', type: 'send', channel: 'push', template_id: 'missing' };

    const refused = createJourney(ports)(APP, ada, { name: 'Welcome', definition });

    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(refused).rejects.toMatchObject({ errors: ['steps[3].template_id: no template "missing"'] });
  });

  test('an id already taken is a conflict', async () => {
    const { ports } = await setUp();
    await createJourney(ports)(APP, ada, { name: 'Welcome', definition: welcomeJourney() });

    await expect(createJourney(ports)(APP, ada, { name: 'Welcome', definition: welcomeJourney() })).rejects.toBeInstanceOf(Conflict);
  });

  test('editing the definition of a live journey makes a new version; a rename alone does not', async () => {
    const { ports } = await setUp();
    await createJourney(ports)(APP, ada, { journey_id: 'welcome', name: 'Welcome', definition: welcomeJourney() });
    await moveJourney(ports)(APP, ada, 'welcome', 'publish');

    const renamed = await editJourney(ports)(APP, ada, 'welcome', { name: 'Welcome aboard' });
    const changed = await editJourney(ports)(APP, ada, 'welcome', { definition: welcomeJourney({ within_days: 7 }) });

    expect(renamed.version).toBe(1);
    expect(changed).toMatchObject({ name: 'Welcome aboard', status: 'live', version: 2, definition: { goal: { within_days: 7 } } });
    expect(changed.versions.map((row) => row.version)).toEqual([2, 1]);
  });

  test.each([
    ['draft', 'pause'],
    ['draft', 'resume'],
    ['archived', 'publish'],
  ] as const)('a %s journey cannot %s', async (status, move) => {
    const { ports } = await setUp();
    await createJourney(ports)(APP, ada, { journey_id: 'welcome', name: 'Welcome', definition: welcomeJourney() });
    if (status === 'archived') await moveJourney(ports)(APP, ada, 'welcome', 'archive');

    await expect(moveJourney(ports)(APP, ada, 'welcome', move)).rejects.toBeInstanceOf(Conflict);
  });

  test('publish, pause and resume move the status and are audited', async () => {
    const { ports, audit } = await setUp();
    await createJourney(ports)(APP, ada, { journey_id: 'welcome', name: 'Welcome', definition: welcomeJourney() });

    const statuses = [];
    for (const move of ['publish', 'pause', 'resume'] as const) statuses.push((await moveJourney(ports)(APP, ada, 'welcome', move)).status);

    expect(statuses).toEqual(['live', 'paused', 'live']);
    expect(audit.entries.map((entry) => entry.action)).toEqual(['journey.created', 'journey.published', 'journey.paused', 'journey.resumed']);
  });

  test('an unknown journey is not found', async () => {
    const { ports } = await setUp();

    await expect(getJourney(ports)(APP, 'nope')).rejects.toBeInstanceOf(NotFound);
  });

  test("a journey shows how many players are at each step, and a player's journeys say where they are and what they got", async () => {
    const { ports, journeys } = await setUp();
    await createJourney(ports)(APP, ada, { journey_id: 'welcome', name: 'Welcome', definition: welcomeJourney() });
    const instance = { ...newInstance(version(welcomeJourney()), 'bob', journeyEvent('Deposit', '2026-11-27T10:00:00Z')), stepId: 'welcome' };
    await journeys.enter({ app_id: APP, instance, revision: 0, updated_at: instance.enteredAt }, 0);
    await journeys.move(
      {
        app_id: APP,
        instance: { ...instance, stepId: 'wait-2d', waitingUntil: '2026-11-29T10:00:00.000Z', visits: { welcome: 1 } },
        revision: 1,
        updated_at: instance.enteredAt,
      },
      'welcome',
    );

    const detail = await getJourney(ports)(APP, 'welcome');
    const theirs = await playerJourneys(ports)(APP, 'bob');

    expect(detail.occupancy).toEqual([{ version: 1, step_id: 'wait-2d', players: 1 }]);
    expect(theirs).toEqual([
      expect.objectContaining({
        journey_id: 'welcome',
        name: 'Welcome',
        status: 'active',
        step_id: 'wait-2d',
        waiting_until: '2026-11-29T10:00:00.000Z',
        sends: [{ step_id: 'welcome', channel: 'email', template_id: 'welcome' }],
      }),
    ]);
  });
});
