import { describe, expect, test } from '@jest/globals';
import { defaultScryptParams, hashPassword, verifyPassword } from '../../../functions/domain/passwords';

describe('password hashes', () => {
  test('are scrypt with N=2^15, r=8, p=1, a 16-byte salt and a 32-byte key by default', async () => {
    const hash = await hashPassword('correct horse battery');

    const [scheme, n, r, p, salt, key] = hash.split('$');
    expect([scheme, Number(n), Number(r), Number(p)]).toEqual(['scrypt', 2 ** 15, 8, 1]);
    expect(defaultScryptParams).toEqual({ N: 2 ** 15, r: 8, p: 1 });
    expect(Buffer.from(salt, 'base64url').length).toBe(16);
    expect(Buffer.from(key, 'base64url').length).toBe(32);
  });

  test('differ for the same password (a fresh salt each time)', async () => {
    const params = { N: 2 ** 10, r: 8, p: 1 };

    expect(await hashPassword('same password', params)).not.toBe(await hashPassword('same password', params));
  });

  test('verify the password they were made from, and no other', async () => {
    const hash = await hashPassword('correct horse battery', { N: 2 ** 10, r: 8, p: 1 });

    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
    expect(await verifyPassword('correct horse battery', 'plain text')).toBe(false);
  });

  test('treat the two Unicode forms of one password alike', async () => {
    const hash = await hashPassword('pa\u00dfw\u00f6rter', { N: 2 ** 10, r: 8, p: 1 });

    expect(await verifyPassword('pa\u00dfwo\u0308rter', hash)).toBe(true);
  });
});
