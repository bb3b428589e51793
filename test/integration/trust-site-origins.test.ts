/**
 * Site origins on the local stack (issue 25, item 10): a tenant admin in the
 * console and the operator's command line get the same rule (https, plain
 * http only on the loopback host), and `app list` shows the operator which
 * application points where.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { commandLineActor } from '../../functions/domain/audit';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { consoleRequest, consoleSignIn, type ConsoleSession } from '../support/console';
import { adminInProcess } from '../support/admin-in-process';
import { adminCli, testStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
let appId: string;
let tenantAdmin: ConsoleSession;

beforeAll(async () => {
  stack = await testStack();
  const office = localBackOffice(localClients(stack.endpoints).document);
  const app = await createApp(office, { name: `origins ${randomUUID()}`, portalOrigin: stack.baseUrl });
  appId = app.app_id;
  const serverKey = (await issueKey(office, appId, commandLineActor, 'server')).key;
  tenantAdmin = await consoleSignIn(stack.baseUrl, { appId, serverKey });
}, 60_000);

const admin = (...args: string[]) => adminInProcess(stack.dataDir, ...args);

describe('the console', () => {
  test('a tenant admin may not point the site origins at a plain http site, and the refusal is a 400 naming the field', async () => {
    const refused = await consoleRequest(stack.baseUrl, tenantAdmin, 'POST', '/console/api/app', { site_origins: ['http://elsewhere.example'] });
    const read = await consoleRequest(stack.baseUrl, tenantAdmin, 'GET', '/console/api/app');

    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual(['site origin must be https (plain http only for localhost, 127.0.0.1 or [::1])']);
    expect(read.body.app.site_origins).toEqual([]);
  });
});

describe('the admin command line', () => {
  test('app update refuses a plain http site origin', async () => {
    const refused = adminCli(stack.dataDir, ['app', 'update', appId, '--site-origin', 'http://elsewhere.example']);

    await expect(refused).rejects.toMatchObject({ stderr: expect.stringContaining('site origin must be https') });
  });

  test("app list shows each application's portal origin and site origins", async () => {
    await admin('app', 'update', appId, '--site-origin', 'https://shop.example.com', '--site-origin', 'https://www.example.com');

    const listed = await admin('app', 'list');
    const asJson = JSON.parse(await admin('--json', 'app', 'list')) as { app_id: string; portal_origin?: string; site_origins?: string[] }[];

    const row = listed.split('\n').find((line) => line.startsWith(appId));
    expect(row).toContain(stack.baseUrl);
    expect(row).toContain('https://shop.example.com');
    expect(row).toContain('https://www.example.com');
    expect(asJson.find((app) => app.app_id === appId)).toMatchObject({
      portal_origin: stack.baseUrl,
      site_origins: ['https://shop.example.com', 'https://www.example.com'],
    });
  });
});
