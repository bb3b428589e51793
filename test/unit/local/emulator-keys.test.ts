/** The emulators answer only the stack's per-start access key id (lib/local/emulators.ts). */
import { describe, expect, test } from '@jest/globals';
import { accessKeyIdOf, newAccessKeyId, signedWith } from '../../../lib/local/emulators';

const signed = (id: string) =>
  `AWS4-HMAC-SHA256 Credential=${id}/20261121/us-east-1/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=${'0'.repeat(64)}`;

describe('the access key id of a request', () => {
  test('is read from a SigV4 Authorization header', () => {
    expect(accessKeyIdOf(signed('AKIAURMEXAMPLE'))).toBe('AKIAURMEXAMPLE');
  });

  test.each([undefined, '', 'Bearer AKIAURMEXAMPLE', 'AWS AKIAURMEXAMPLE:sig', 'AWS4-HMAC-SHA256 Credential=AKIAURMEXAMPLE'])('is none in %j', (header) => {
    expect(accessKeyIdOf(header)).toBeUndefined();
  });
});

describe('signedWith', () => {
  test("answers the stack's key id only", () => {
    const id = newAccessKeyId();

    expect(signedWith({ authorization: signed(id) }, id)).toBe(true);
    expect(signedWith({ authorization: signed('local') }, id)).toBe(false);
    expect(signedWith({ authorization: signed(`${id}X`) }, id)).toBe(false);
    expect(signedWith({}, id)).toBe(false);
  });

  test('each start gets a new key id of 128 random bits', () => {
    const [one, two] = [newAccessKeyId(), newAccessKeyId()];

    expect(one).not.toBe(two);
    expect(one).toMatch(/^AKIAURM[0-9A-F]{32}$/);
  });
});
