/**
 * What the console shows of an identifier (issue 25, item 11): any invisible
 * or bidi character left in stored data (written before the identifier rule,
 * or in a field the rule does not cover) is shown as a visible escape, so two
 * ids that render alike are told apart.
 */
import { describe, expect, test } from '@jest/globals';
import { hasInvisible, visible, visibleParts } from '../../../functions/ui/visible';

describe('visible', () => {
  test.each([
    ['a right-to-left override', 'player\u202E1', 'player⟨U+202E⟩1'],
    ['bidi isolates', '\u2066admin\u2069', '⟨U+2066⟩admin⟨U+2069⟩'],
    ['marks', 'a\u200Eb\u200Fc\u061C', 'a⟨U+200E⟩b⟨U+200F⟩c⟨U+061C⟩'],
    ['zero-width characters', 'ad\u200Bmin\u200C\u200D\u2060\uFEFF', 'ad⟨U+200B⟩min⟨U+200C⟩⟨U+200D⟩⟨U+2060⟩⟨U+FEFF⟩'],
    ['a soft hyphen', 'pay\u00ADpal', 'pay⟨U+00AD⟩pal'],
    ['C0 and C1 controls and DEL', 'a\u0000b\nc\u007Fd\u0085', 'a⟨U+0000⟩b⟨U+000A⟩c⟨U+007F⟩d⟨U+0085⟩'],
    ['line and paragraph separators', 'a\u2028b\u2029', 'a⟨U+2028⟩b⟨U+2029⟩'],
    ['a Hangul filler', '\u3164', '⟨U+3164⟩'],
    ['a tag character (astral)', 'id\u{E0041}', 'id⟨U+E0041⟩'],
    ['an unpaired surrogate', 'x\uD800y', 'x⟨U+D800⟩y'],
    ['a variation selector', '\u2764\uFE0F', '\u2764⟨U+FE0F⟩'],
    ['a no-break space, which reads as a space', 'player\u00A01', 'player⟨U+00A0⟩1'],
  ])('shows %s as escapes', (_name, text, shown) => {
    expect(visible(text)).toBe(shown);
  });

  test('leaves visible text as it is: letters of any script, spaces, accents, emoji', () => {
    const text = 'Ada Lovelace café cafe\u0301 שלום مرحبا 😀 𝒜 player-42_x.y@z';

    expect(visible(text)).toBe(text);
  });

  test('escapes an opening bracket of its own, so a shown escape is never text that only looks like one', () => {
    expect(visible('⟨U+202E⟩')).toBe('⟨U+27E8⟩U+202E⟩');
    expect(visible('⟨U+202E⟩')).not.toBe(visible('\u202E'));
  });

  test('two ids that render alike are shown differently', () => {
    expect(visible('admin')).not.toBe(visible('ad\u200Bmin'));
  });
});

describe('visibleParts', () => {
  test('splits text into plain runs and escapes, for a page to mark the escapes', () => {
    expect(visibleParts('ad\u200Bmin\u202E')).toEqual([
      { text: 'ad', escaped: false },
      { text: '⟨U+200B⟩', escaped: true },
      { text: 'min', escaped: false },
      { text: '⟨U+202E⟩', escaped: true },
    ]);
  });

  test('is one plain part for plain text, and none for the empty string', () => {
    expect(visibleParts('player-1')).toEqual([{ text: 'player-1', escaped: false }]);
    expect(visibleParts('')).toEqual([]);
  });
});

describe('hasInvisible', () => {
  test('says whether anything would be escaped', () => {
    expect(hasInvisible('ad\u200Bmin')).toBe(true);
    expect(hasInvisible('⟨')).toBe(true);
    expect(hasInvisible('admin')).toBe(false);
  });
});
