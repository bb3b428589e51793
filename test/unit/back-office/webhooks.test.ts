/** The application's webhook signing secret (functions/back-office/webhooks.ts): made, shown once, audited without it. */
import { describe, expect, test } from '@jest/globals';
import { rotateWebhookSecret } from '../../../functions/back-office/webhooks';
import { commandLineActor } from '../../../functions/domain/audit';
import { NotFound } from '../../../functions/domain/errors';
import { webhookSecretName } from '../../../functions/domain/webhooks';
import { MemoryAppStore } from '../../support/affiliates';
import { MemoryAuditLog } from '../../support/enterprise';
import { MemorySecretStore } from '../../support/secrets';

function setUp() {
  const office = {
    apps: new MemoryAppStore([{ app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z' }]),
    secrets: new MemorySecretStore(),
    audit: new MemoryAuditLog(),
    now: () => new Date('2026-11-23T10:00:00.000Z'),
  };
  return office;
}

describe('the webhook secret', () => {
  test('a rotation stores a new prefixed secret, returns it once, and audits it without the secret', async () => {
    const office = setUp();

    const first = await rotateWebhookSecret(office, 'app_1', commandLineActor);
    const second = await rotateWebhookSecret(office, 'app_1', commandLineActor);

    expect(first).toMatch(/^urm_webhook_[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);
    expect(office.secrets.values.get(webhookSecretName('app_1'))).toBe(second);
    expect(office.audit.entries.map(({ action, target }) => ({ action, target }))).toEqual([
      { action: 'webhook_secret.rotated', target: 'app:app_1' },
      { action: 'webhook_secret.rotated', target: 'app:app_1' },
    ]);
    expect(JSON.stringify(office.audit.entries)).not.toContain(first);
  });

  test('an unknown application gets no secret', async () => {
    const office = setUp();

    await expect(rotateWebhookSecret(office, 'app_2', commandLineActor)).rejects.toBeInstanceOf(NotFound);
    expect(office.secrets.values.size).toBe(0);
  });
});
