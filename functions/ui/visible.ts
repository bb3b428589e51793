/**
 * How a page shows an identifier so that what cannot be seen is seen
 * (docs/api.md, "Security"): every character that renders as nothing, moves
 * the text around it, or reads as a plain space is shown as an escape such as
 * `⟨U+202E⟩`. The identifier rule (functions/domain/text.ts) refuses most of
 * these on the way in; this shows what is left (data stored before the rule,
 * variation selectors, no-break spaces, fields the rule does not cover).
 * Pure and dependency-free, for the server's pages and the console alike.
 */

/**
 * Controls, format characters (bidi controls, zero-width characters, tags),
 * surrogates (only a lone one reaches a `u` regex as such), line and
 * paragraph separators, every default-ignorable code point (Hangul fillers,
 * variation selectors, …), every space but U+0020, and `⟨` itself, so that an
 * escape shown is never text that only looks like one.
 */
const escapable = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Zs}\u27E8]/u;
const shownAsEscape = (character: string) => character !== ' ' && escapable.test(character);

/** `⟨U+202E⟩`: the code point in hex, at least four digits. */
const escapeOf = (character: string) => `⟨U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`;

/** One run of the shown text: plain characters, or the escape of one character. */
export interface VisiblePart {
  text: string;
  escaped: boolean;
}

/** The text in runs, each escape its own part, for a page that marks escapes (e.g. in a `<mark>`); none for ''. */
export function visibleParts(text: string): VisiblePart[] {
  const parts: VisiblePart[] = [];
  let plain = '';
  for (const character of text) {
    if (!shownAsEscape(character)) {
      plain += character;
      continue;
    }
    if (plain !== '') parts.push({ text: plain, escaped: false });
    plain = '';
    parts.push({ text: escapeOf(character), escaped: true });
  }
  if (plain !== '') parts.push({ text: plain, escaped: false });
  return parts;
}

/** The text with each invisible, bidi or space-like character (and `⟨`) shown as `⟨U+XXXX⟩`. */
export function visible(text: string): string {
  return visibleParts(text)
    .map((part) => part.text)
    .join('');
}

/** Whether `visible` would change the text: worth a warning beside the id. */
export function hasInvisible(text: string): boolean {
  return [...text].some(shownAsEscape);
}
