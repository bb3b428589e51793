import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defaultScryptParams, hashPassword, verifyPassword } from '../../../functions/shared/domain/passwords';

describe('password hashes', () => {
  test('are scrypt with N=2^15, r=8, p=1, a 16-byte salt and a 32-byte key by default', async () => {
    const hash = await hashPassword('correct horse battery');

    const [scheme, n, r, p, salt, key] = hash.split('$');
    assert.deepEqual([scheme, Number(n), Number(r), Number(p)], ['scrypt', 2 ** 15, 8, 1]);
    assert.deepEqual(defaultScryptParams, { N: 2 ** 15, r: 8, p: 1 });
    assert.equal(Buffer.from(salt, 'base64url').length, 16);
    assert.equal(Buffer.from(key, 'base64url').length, 32);
  });

  test('differ for the same password (a fresh salt each time)', async () => {
    const params = { N: 2 ** 10, r: 8, p: 1 };

    assert.notEqual(await hashPassword('same password', params), await hashPassword('same password', params));
  });

  test('verify the password they were made from, and no other', async () => {
    const hash = await hashPassword('correct horse battery', { N: 2 ** 10, r: 8, p: 1 });

    assert.equal(await verifyPassword('correct horse battery', hash), true);
    assert.equal(await verifyPassword('correct horse batterY', hash), false);
    assert.equal(await verifyPassword('correct horse battery', 'plain text'), false);
  });

  test('treat the two Unicode forms of one password alike', async () => {
    const hash = await hashPassword('pa\u00dfw\u00f6rter', { N: 2 ** 10, r: 8, p: 1 });

    assert.equal(await verifyPassword('pa\u00dfwo\u0308rter', hash), true);
  });
});
