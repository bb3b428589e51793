/**
 * The opaque cursor of a paged listing: where the next page starts, bound to
 * what was listed (the application, and the affiliate of an affiliate's
 * listing), so a cursor of one listing is refused by another.
 */
import { ValidationError } from '../domain/errors';

/** The cursor after `position` in the listing of `scope` (e.g. `[appId]`). */
export function encodeCursor(scope: readonly string[], position: string): string {
  return Buffer.from(JSON.stringify([...scope, position])).toString('base64url');
}

/** The position a cursor names; a ValidationError (`cursor is not one this <listing> gave`) unless it came from the listing of `scope`. */
export function decodeCursor(cursor: string, scope: readonly string[], listing: string): string {
  const invalid = () => new ValidationError([`cursor is not one this ${listing} gave`], 'request is invalid');
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(values) || values.length !== scope.length + 1 || scope.some((value, i) => values[i] !== value)) throw invalid();
  const position = values[scope.length];
  if (typeof position !== 'string' || position === '') throw invalid();
  return position;
}
