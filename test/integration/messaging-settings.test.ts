/**
 * The send gate's settings, as an operator sets them: the command line's
 * `app messaging` and the console's POST /console/api/app write the same
 * application field, each reads back what the other wrote, and a refusal is
 * a 400 naming the field.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { commandLineActor } from '../../functions/domain/audit';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { consoleRequest, consoleSignIn, type ConsoleSession } from '../support/console';
import { adminInProcess } from '../support/admin-in-process';
import { testStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
let appId: string;
let tenantAdmin: ConsoleSession;

beforeAll(async () => {
  stack = await testStack();
  const office = localBackOffice(localClients(stack.endpoints).document);
  const app = await createApp(office, { name: `messaging ${randomUUID()}`, portalOrigin: stack.baseUrl });
  appId = app.app_id;
  const serverKey = (await issueKey(office, appId, commandLineActor, 'server')).key;
  tenantAdmin = await consoleSignIn(stack.baseUrl, { appId, serverKey });
}, 60_000);

const admin = (...args: string[]) => adminInProcess(stack.dataDir, ...args);

describe('messaging settings', () => {
  test('set by the command line, the console reads them with the defaults filled', async () => {
    const rules = {
      caps: { email: { daily: 1, weekly: 3 } },
      quiet_hours: { start: '22:00', end: '08:00' },
      topics: [{ name: 'promos', label: 'Promotions' }],
    };

    await admin('app', 'messaging', '--app', appId, '--set', JSON.stringify(rules));
    const read = await consoleRequest(stack.baseUrl, tenantAdmin, 'GET', '/console/api/app');

    expect(read.status).toBe(200);
    expect(read.body.app.messaging).toEqual({
      caps: { email: { daily: 1, weekly: 3 }, push: { daily: null, weekly: null } },
      quiet_hours: { start: '22:00', end: '08:00' },
      time_zone: 'UTC',
      topics: [{ name: 'promos', label: 'Promotions' }],
      email_attribute: 'email',
      phone_attribute: 'phone',
    });
  });

  test('set by the console, the command line prints them', async () => {
    const saved = await consoleRequest(stack.baseUrl, tenantAdmin, 'POST', '/console/api/app', {
      messaging: { caps: { push: { daily: 2 } }, time_zone: 'Europe/Malta' },
    });

    const printed = await admin('app', 'messaging', '--app', appId);

    expect(saved.status).toBe(200);
    expect(printed).toContain('push     2        no cap');
    expect(printed).toContain("quiet hours: none (players' local time; default zone Europe/Malta)");
  });

  test('a daily cap above the weekly cap is a 400 naming the field, and nothing changes', async () => {
    const before = await consoleRequest(stack.baseUrl, tenantAdmin, 'GET', '/console/api/app');

    const refused = await consoleRequest(stack.baseUrl, tenantAdmin, 'POST', '/console/api/app', { messaging: { caps: { email: { daily: 4, weekly: 2 } } } });
    const after = await consoleRequest(stack.baseUrl, tenantAdmin, 'GET', '/console/api/app');

    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual(['messaging.caps.email: the daily cap (4) must not be above the weekly cap (2)']);
    expect(after.body.app.messaging).toEqual(before.body.app.messaging);
  });

  test('an unknown time zone is refused by the schema', async () => {
    const refused = await consoleRequest(stack.baseUrl, tenantAdmin, 'POST', '/console/api/app', { messaging: { time_zone: 'Mars/Olympus' } });

    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.errors)).toContain('IANA time zone');
  });
});
