import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { displayName, encodedWords, formatAddress } from '../../../functions/shared/domain/email';

const WORD = /^=\?UTF-8\?B\?([A-Za-z0-9+/]*={0,2})\?=$/;

/** Decodes a display name made of encoded-words, checking each word on its own as RFC 2047 requires. */
function decodeWords(header: string): string {
  return header
    .split(' ')
    .map((word) => {
      assert.ok(word.length <= 75, `an encoded-word is at most 75 characters: ${word}`);
      const match = WORD.exec(word);
      assert.ok(match, `not a UTF-8 base64 encoded-word: ${word}`);
      // fatal: a word that cuts a character in two does not decode on its own.
      return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(match[1], 'base64'));
    })
    .join('');
}

describe('recipient addresses', () => {
  test('an ASCII name is a quoted-string before the address in angle brackets', () => {
    assert.equal(formatAddress('ann@example.com', 'Ann Lee'), '"Ann Lee" <ann@example.com>');
  });

  test('quotes and backslashes in an ASCII name are escaped', () => {
    assert.equal(formatAddress('ann@example.com', 'Lee, Ann "A\\L"'), '"Lee, Ann \\"A\\\\L\\"" <ann@example.com>');
  });

  test('an address without a name stays bare', () => {
    assert.equal(formatAddress('help@example.com'), 'help@example.com');
  });

  test('a non-ASCII name becomes unquoted UTF-8 encoded-words', () => {
    assert.equal(formatAddress('zoe@example.com', 'Zoë Ørsted'), '=?UTF-8?B?Wm/DqyDDmHJzdGVk?= <zoe@example.com>');
  });

  test('a long non-ASCII name is split into words of at most 75 characters, never inside a character', () => {
    const name = '€'.repeat(100);

    const words = displayName(name).split(' ');

    assert.ok(words.length > 1);
    assert.equal(decodeWords(displayName(name)), name);
  });

  test('any non-ASCII name decodes back to itself, word by word', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 100 }).filter((name) => /[^\x20-\x7e]/.test(name)),
        (name) => {
          assert.equal(decodeWords(displayName(name)), name);
        },
      ),
      { numRuns: 500 },
    );
  });

  test('encoded-words hold no character that could end a header', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 100 }), (name) => {
        for (const word of encodedWords(name)) assert.doesNotMatch(word, /[\r\n"<>,;\s]/);
      }),
    );
  });
});
