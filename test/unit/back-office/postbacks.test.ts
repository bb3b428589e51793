import { describe, expect, test } from '@jest/globals';
import { clearPostbackUrl, postbackDeliveries, rotatePostbackSecret, setPostbackUrl } from '../../../functions/back-office/postbacks';
import type { App, AppStore } from '../../../functions/domain/apps';
import { NotFound, ValidationError } from '../../../functions/domain/errors';
import { postbackSecretName } from '../../../functions/domain/postbacks';
import { MemoryPostbackOutbox, MemoryPostbackSettings } from '../../support/postbacks';
import { MemorySecretStore } from '../../support/secrets';

function setUp(allowedHosts: string[] = []) {
  const apps = {
    get: async (appId: string) => (appId === 'app_1' ? ({ app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z' } as App) : undefined),
  };
  const settings = new MemoryPostbackSettings();
  settings.urls.set('app_1#aff_1', undefined);
  const secrets = new MemorySecretStore();
  const secretValues = secrets.values;
  const log = new MemoryPostbackOutbox();
  const office = { apps: apps as unknown as AppStore, secrets, postbacks: { settings, log, allowedHosts } };
  return { office, settings, secrets, secretValues, log };
}

const URL_TEMPLATE = 'https://tracker.example.com/pb?cid={sub_id}&e={event}';

describe('postback settings', () => {
  test('the first URL makes a signing secret and shows it; setting another URL keeps it and shows nothing', async () => {
    const { office, settings, secretValues } = setUp();

    const first = await setPostbackUrl(office, 'app_1', 'aff_1', URL_TEMPLATE);
    const second = await setPostbackUrl(office, 'app_1', 'aff_1', `${URL_TEMPLATE}&x=1`);

    expect(first.signing_secret).toMatch(/^urm_postback_[A-Za-z0-9_-]{43}$/);
    expect(secretValues.get(postbackSecretName('app_1', 'aff_1'))).toBe(first.signing_secret);
    expect(second).toEqual({ app_id: 'app_1', affiliate_id: 'aff_1', postback_url: `${URL_TEMPLATE}&x=1` });
    expect((await settings.get('app_1', 'aff_1')).postback_url).toBe(`${URL_TEMPLATE}&x=1`);
  });

  test('whether a signing secret exists is asked of the store, never read from it', async () => {
    const { office, secrets } = setUp();

    await setPostbackUrl(office, 'app_1', 'aff_1', URL_TEMPLATE);
    await setPostbackUrl(office, 'app_1', 'aff_1', `${URL_TEMPLATE}&x=1`);

    expect(secrets.checks).toEqual([postbackSecretName('app_1', 'aff_1'), postbackSecretName('app_1', 'aff_1')]);
    expect(secrets.reads).toEqual([]);
  });

  test.each(['https://169.254.169.254/latest', 'https://10.0.0.1/pb', 'http://tracker.example.com/pb'])(
    '%s is refused when set, and nothing is stored',
    async (url) => {
      const { office, settings, secretValues } = setUp();

      await expect(setPostbackUrl(office, 'app_1', 'aff_1', url)).rejects.toThrow(ValidationError);
      expect((await settings.get('app_1', 'aff_1')).postback_url).toBeUndefined();
      expect(secretValues.size).toBe(0);
    },
  );

  test('rotating makes a new secret; clearing turns postbacks off', async () => {
    const { office, settings, secretValues } = setUp();
    const { signing_secret: first } = await setPostbackUrl(office, 'app_1', 'aff_1', URL_TEMPLATE);

    const rotated = await rotatePostbackSecret(office, 'app_1', 'aff_1');
    const cleared = await clearPostbackUrl(office, 'app_1', 'aff_1');

    expect(rotated.signing_secret).not.toBe(first);
    expect(secretValues.get(postbackSecretName('app_1', 'aff_1'))).toBe(rotated.signing_secret);
    expect(cleared.postback_url).toBeNull();
    expect(await settings.get('app_1', 'aff_1')).toEqual({ exists: true });
  });

  test('an unknown affiliate or application is not found', async () => {
    const { office } = setUp();

    await expect(setPostbackUrl(office, 'app_1', 'aff_404', URL_TEMPLATE)).rejects.toThrow(NotFound);
    await expect(postbackDeliveries(office, 'app_404', 'aff_1')).rejects.toThrow(NotFound);
  });

  test('the delivery log is newest first', async () => {
    const { office, log } = setUp();
    await log.append('app_1', 'aff_1', {
      event_id: 'e1',
      event: 'registration',
      at: '2026-11-23T10:00:00.000Z',
      attempts: 1,
      outcome: 'retrying',
      status_code: 500,
    });
    await log.append('app_1', 'aff_1', {
      event_id: 'e1',
      event: 'registration',
      at: '2026-11-23T10:01:00.000Z',
      attempts: 2,
      outcome: 'delivered',
      status_code: 200,
    });

    const entries = await postbackDeliveries(office, 'app_1', 'aff_1');

    expect(entries.map((entry) => [entry.attempts, entry.outcome])).toEqual([
      [2, 'delivered'],
      [1, 'retrying'],
    ]);
  });
});
