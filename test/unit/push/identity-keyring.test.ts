import { describe, expect, test } from '@jest/globals';
import { AppIdentityKeyring } from '../../../functions/adapters/identity-keyring';
import type { App } from '../../../functions/domain/apps';
import { identitySecretName } from '../../../functions/domain/identity';

function stores(app: Partial<App> | undefined, secret: string | undefined) {
  const reads = { apps: 0, secrets: [] as string[] };
  const apps = {
    get: async (appId: string) => {
      reads.apps++;
      return app && ({ app_id: appId, name: 'a', created_at: '', ...app } as App);
    },
  };
  const secrets = {
    get: async (name: string) => {
      reads.secrets.push(name);
      return secret;
    },
  };
  return { apps, secrets, reads };
}

describe("an application's identity verification", () => {
  test('is required with the secret from the secret store, for an application that never said otherwise', async () => {
    const { apps, secrets, reads } = stores({}, 'urm_identity_s');

    const verification = await new AppIdentityKeyring(apps, secrets).forApp('app_1');

    expect(verification).toEqual({ required: true, secret: 'urm_identity_s' });
    expect(reads.secrets).toEqual([identitySecretName('app_1')]);
  });

  test('is not required once turned off, and then no secret is read', async () => {
    const { apps, secrets, reads } = stores({ identity_verification: 'off' }, 'urm_identity_s');

    expect(await new AppIdentityKeyring(apps, secrets).forApp('app_1')).toEqual({ required: false });
    expect(reads.secrets).toEqual([]);
  });

  test('is required without a secret when the application has none: no proof can match', async () => {
    const { apps, secrets } = stores({ identity_verification: 'on' }, undefined);

    expect(await new AppIdentityKeyring(apps, secrets).forApp('app_1')).toEqual({ required: true, secret: undefined });
  });

  test('is kept a few minutes, then read again (a rotated secret applies)', async () => {
    let now = 0;
    const { apps, secrets, reads } = stores({}, 'urm_identity_s');
    const keyring = new AppIdentityKeyring(apps, secrets, { ttlMs: 1000, maxEntries: 10, now: () => now });

    await keyring.forApp('app_1');
    await keyring.forApp('app_1');
    now = 1001;
    await keyring.forApp('app_1');

    expect(reads.secrets.length).toBe(2);
  });

  test('a failed read is not kept: the next call reads again', async () => {
    let fail = true;
    const reads: string[] = [];
    const secrets = {
      get: async (name: string) => {
        reads.push(name);
        if (fail) throw new Error('throttled');
        return 'urm_identity_s';
      },
    };
    const keyring = new AppIdentityKeyring(stores({}, undefined).apps, secrets);

    await expect(keyring.forApp('app_1')).rejects.toThrow('throttled');
    fail = false;

    expect(await keyring.forApp('app_1')).toEqual({ required: true, secret: 'urm_identity_s' });
  });
});
