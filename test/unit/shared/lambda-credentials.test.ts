import { afterEach, describe, expect, test } from '@jest/globals';
import { defaultProvider } from '../../../functions/adapters/clients/lambda-credentials';

const names = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_CREDENTIAL_EXPIRATION'] as const;
const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));

afterEach(() => {
  for (const name of names) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe('the credentials a bundled function signs with', () => {
  test("are the role's credentials Lambda puts in the environment", async () => {
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_SESSION_TOKEN: 'token',
      AWS_CREDENTIAL_EXPIRATION: '2026-11-27T10:00:00.000Z',
    });

    const credentials = await defaultProvider()();

    expect(credentials).toMatchObject({
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'secret',
      sessionToken: 'token',
      expiration: new Date('2026-11-27T10:00:00.000Z'),
    });
  });

  test('are refused when the environment has none, rather than looked for elsewhere', async () => {
    for (const name of names) delete process.env[name];

    await expect(defaultProvider()()).rejects.toMatchObject({ name: 'CredentialsProviderError' });
  });
});
