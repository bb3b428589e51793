/** What a request validator (functions/domain/validation.ts) says of an input, for tests of the rules. */
import { expect } from '@jest/globals';
import { ValidationError } from '../../functions/domain/errors';

/**
 * The messages of a rejected input, or [] when it is accepted. A rejection
 * must be a ValidationError (with `message`, when given).
 */
export function validationProblems(validate: (input: unknown) => unknown, input: unknown, message?: string): string[] {
  try {
    validate(input);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    if (message !== undefined) expect((error as ValidationError).message).toBe(message);
    return (error as ValidationError).errors;
  }
}
