/**
 * Site and portal origins: tracking links on the shared urm domain redirect to
 * a site origin, and mailed links point at the portal origin, so a tenant
 * admin may set only https ones (plain http only on the loopback host the
 * local stack uses), and every change is audited with its old and new value.
 */
import { describe, expect, test } from '@jest/globals';
import { checkOrigin, createApp, updateApp } from '../../../functions/back-office/apps';
import type { App, AppStore } from '../../../functions/domain/apps';
import { commandLineActor } from '../../../functions/domain/audit';
import { ValidationError } from '../../../functions/domain/errors';
import { MemoryPlanStore } from '../../support/affiliates';
import { MemoryAuditLog } from '../../support/enterprise';
import { MemorySecretStore } from '../../support/secrets';

class Apps implements AppStore {
  readonly apps = new Map<string, App>([['app_1', { app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z' }]]);
  async get(appId: string) {
    return this.apps.get(appId);
  }
  async list() {
    return [...this.apps.values()];
  }
  async create(app: App) {
    this.apps.set(app.app_id, app);
  }
  async update(appId: string, changes: Partial<App>) {
    const app = { ...this.apps.get(appId)!, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
    this.apps.set(appId, app);
    return app;
  }
}

function setUp() {
  const apps = new Apps();
  const log = new MemoryAuditLog();
  const office = {
    apps,
    plans: new MemoryPlanStore(),
    audit: log,
    secrets: new MemorySecretStore(),
    now: () => new Date('2026-11-23T10:00:00.000Z'),
  };
  return { office, apps, log };
}

describe('site origins', () => {
  test.each(['http://shop.example.com', 'http://localhost.example.com', 'http://127.0.0.1.nip.io', 'ftp://shop.example.com', 'javascript:alert(1)'])(
    '%s is refused as a site origin, and nothing changes or is audited',
    async (origin) => {
      const { office, apps, log } = setUp();

      await expect(updateApp(office, 'app_1', commandLineActor, { siteOrigins: ['https://shop.example.com', origin] })).rejects.toThrow(ValidationError);

      expect(apps.apps.get('app_1')?.site_origins).toBeUndefined();
      expect(log.entries).toEqual([]);
    },
  );

  test('a plain http site origin is refused with a message that says https is needed', async () => {
    const { office } = setUp();

    const refused = await updateApp(office, 'app_1', commandLineActor, { siteOrigins: ['http://shop.example.com'] }).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).errors).toEqual(['site origin must be https (plain http only for localhost, 127.0.0.1 or [::1])']);
  });

  test.each(['http://localhost:3000', 'http://127.0.0.1:4000', 'http://[::1]:8080', 'http://localhost'])(
    '%s, where the local stack serves, may be plain http',
    async (origin) => {
      const { office, apps } = setUp();

      await updateApp(office, 'app_1', commandLineActor, { siteOrigins: [origin] });

      expect(apps.apps.get('app_1')?.site_origins).toEqual([origin]);
    },
  );

  test('an https origin is kept, and the change is audited with the old and the new list', async () => {
    const { office, log } = setUp();

    await updateApp(office, 'app_1', commandLineActor, { siteOrigins: ['https://shop.example.com'] });
    await updateApp(office, 'app_1', commandLineActor, { siteOrigins: ['https://www.example.com:8443'] });

    expect(log.entries.map(({ action, details }) => ({ action, details }))).toEqual([
      { action: 'app.updated', details: { changes: { site_origins: { from: null, to: ['https://shop.example.com'] } } } },
      { action: 'app.updated', details: { changes: { site_origins: { from: ['https://shop.example.com'], to: ['https://www.example.com:8443'] } } } },
    ]);
  });

  test('a new application may not start with a plain http site origin either', async () => {
    const { office, apps } = setUp();

    await expect(createApp(office, { name: 'Other', siteOrigins: ['http://shop.example.com'] })).rejects.toThrow(ValidationError);

    expect(apps.apps.size).toBe(1);
  });
});

describe('the portal origin', () => {
  test('follows the same rule: https, or plain http on the loopback host', () => {
    expect(() => checkOrigin('http://portal.example.com', 'portal origin')).toThrow(ValidationError);
    expect(checkOrigin('https://portal.example.com/', 'portal origin')).toBe('https://portal.example.com');
    expect(checkOrigin('http://127.0.0.1:3000', 'portal origin')).toBe('http://127.0.0.1:3000');
  });
});
