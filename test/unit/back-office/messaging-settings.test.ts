/** The send gate's settings on the application: checked, replaced whole, audited, shown with defaults. */
import { describe, expect, test } from '@jest/globals';
import { appSettingsView, updateApp } from '../../../functions/back-office/apps';
import { commandLineActor } from '../../../functions/domain/audit';
import { ValidationError } from '../../../functions/domain/errors';
import { MemoryAppStore, MemoryPlanStore } from '../../support/affiliates';
import { MemoryAuditLog } from '../../support/enterprise';

function setUp() {
  const log = new MemoryAuditLog();
  const office = {
    apps: new MemoryAppStore([{ app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z' }]),
    plans: new MemoryPlanStore(),
    audit: log,
    now: () => new Date('2026-11-23T10:00:00.000Z'),
  };
  return { office, log };
}

const rules = {
  caps: { email: { daily: 1, weekly: 3 } },
  quiet_hours: { start: '22:00', end: '08:00' },
  time_zone: 'Europe/Malta',
  topics: [{ name: 'promos', label: 'Promotions' }],
  email_attribute: 'contact_email',
};

async function problemsOf(messaging: unknown): Promise<string[]> {
  const { office } = setUp();
  const error = await updateApp(office, 'app_1', commandLineActor, { messaging }).catch((e: unknown) => e);
  if (!(error instanceof ValidationError)) throw new Error(`expected a ValidationError, got ${String(error)}`);
  return error.errors;
}

describe('messaging settings', () => {
  test('an application that never set them shows the defaults', () => {
    expect(appSettingsView({ app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z' }).messaging).toEqual({
      caps: { email: { daily: null, weekly: null }, push: { daily: null, weekly: null } },
      quiet_hours: null,
      time_zone: 'UTC',
      topics: [],
      email_attribute: 'email',
      phone_attribute: 'phone',
    });
  });

  test('are kept as given and shown with the rest filled in', async () => {
    const { office } = setUp();

    const updated = await updateApp(office, 'app_1', commandLineActor, { messaging: rules });

    expect(updated.messaging).toEqual(rules);
    expect(appSettingsView(updated).messaging).toMatchObject({
      caps: { email: { daily: 1, weekly: 3 }, push: { daily: null, weekly: null } },
      time_zone: 'Europe/Malta',
      phone_attribute: 'phone',
    });
  });

  test('replace the whole object: what the new one leaves out is gone', async () => {
    const { office } = setUp();
    await updateApp(office, 'app_1', commandLineActor, { messaging: rules });

    const updated = await updateApp(office, 'app_1', commandLineActor, { messaging: { caps: { push: { daily: 2 } } } });

    expect(updated.messaging).toEqual({ caps: { push: { daily: 2 } } });
  });

  test('a change is audited in app.updated with before and after; the same settings again write nothing', async () => {
    const { office, log } = setUp();

    await updateApp(office, 'app_1', commandLineActor, { messaging: rules });
    await updateApp(office, 'app_1', commandLineActor, { messaging: { ...rules } });

    expect(log.entries.map(({ action, details }) => ({ action, details }))).toEqual([
      { action: 'app.updated', details: { changes: { messaging: { from: null, to: rules } } } },
    ]);
  });

  test.each<[string, unknown, string]>([
    [
      'a topic name twice',
      {
        topics: [
          { name: 'promos', label: 'A' },
          { name: 'promos', label: 'B' },
        ],
      },
      'messaging.topics: each topic name once',
    ],
    [
      'a system attribute as the address',
      { email_attribute: 'urm_email' },
      'messaging.email_attribute: names starting with "urm" are reserved for system attributes and directives',
    ],
    ['a reserved name as the phone', { phone_attribute: '__proto__' }, 'messaging.phone_attribute: the name "__proto__" is reserved'],
    [
      'a daily cap above the weekly cap',
      { caps: { push: { daily: 5, weekly: 2 } } },
      'messaging.caps.push: the daily cap (5) must not be above the weekly cap (2)',
    ],
  ])('%s is refused', async (_name, messaging, problem) => {
    expect(await problemsOf(messaging)).toEqual([problem]);
  });

  test.each<[string, unknown]>([
    ['an unknown time zone', { time_zone: 'Mars/Olympus' }],
    ['a quiet hour that is not HH:MM', { quiet_hours: { start: '22h', end: '08:00' } }],
    ['a negative cap', { caps: { email: { daily: -1 } } }],
    ['a field the settings do not have', { caps: { sms: { daily: 1 } } }],
  ])('%s is refused by the schema, and nothing is written', async (_name, messaging) => {
    const { office, log } = setUp();

    await expect(updateApp(office, 'app_1', commandLineActor, { messaging })).rejects.toThrow(ValidationError);

    expect((await office.apps.get('app_1'))?.messaging).toBeUndefined();
    expect(log.entries).toEqual([]);
  });
});
