/** What a request validator (functions/shared/domain/validation.ts) says of an input, for tests of the rules. */
import assert from 'node:assert/strict';
import { ValidationError } from '../../functions/shared/domain/errors';

/**
 * The messages of a rejected input, or [] when it is accepted. A rejection
 * must be a ValidationError (with `message`, when given).
 */
export function validationProblems(validate: (input: unknown) => unknown, input: unknown, message?: string): string[] {
  try {
    validate(input);
    return [];
  } catch (error) {
    assert.ok(error instanceof ValidationError, String(error));
    if (message !== undefined) assert.equal(error.message, message);
    return error.errors;
  }
}
