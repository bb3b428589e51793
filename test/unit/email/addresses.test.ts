import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { displayName, encodedWords, formatAddress } from '../../../functions/domain/email';

const WORD = /^=\?UTF-8\?B\?([A-Za-z0-9+/]*={0,2})\?=$/;

/** Decodes a display name made of encoded-words, checking each word on its own as RFC 2047 requires. */
function decodeWords(header: string): string {
  return header
    .split(' ')
    .map((word) => {
      expect(word.length <= 75).toBeTruthy();
      const match = WORD.exec(word);
      expect(match).toBeTruthy();
      // fatal: a word that cuts a character in two does not decode on its own.
      return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(match![1], 'base64'));
    })
    .join('');
}

describe('recipient addresses', () => {
  test('an ASCII name is a quoted-string before the address in angle brackets', () => {
    expect(formatAddress('ann@example.com', 'Ann Lee')).toBe('"Ann Lee" <ann@example.com>');
  });

  test('quotes and backslashes in an ASCII name are escaped', () => {
    expect(formatAddress('ann@example.com', 'Lee, Ann "A\\L"')).toBe('"Lee, Ann \\"A\\\\L\\"" <ann@example.com>');
  });

  test('an address without a name stays bare', () => {
    expect(formatAddress('help@example.com')).toBe('help@example.com');
  });

  test('a non-ASCII name becomes unquoted UTF-8 encoded-words', () => {
    expect(formatAddress('zoe@example.com', 'Zoë Ørsted')).toBe('=?UTF-8?B?Wm/DqyDDmHJzdGVk?= <zoe@example.com>');
  });

  test('a long non-ASCII name is split into words of at most 75 characters, never inside a character', () => {
    const name = '€'.repeat(100);

    const words = displayName(name).split(' ');

    expect(words.length > 1).toBeTruthy();
    expect(decodeWords(displayName(name))).toBe(name);
  });

  test('any non-ASCII name decodes back to itself, word by word', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 100 }).filter((name) => /[^\x20-\x7e]/.test(name)),
        (name) => {
          expect(decodeWords(displayName(name))).toBe(name);
        },
      ),
      { numRuns: 500 },
    );
  });

  test('encoded-words hold no character that could end a header', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 100 }), (name) => {
        for (const word of encodedWords(name)) expect(word).not.toMatch(/[\r\n"<>,;\s]/);
      }),
    );
  });
});
