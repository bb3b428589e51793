/**
 * Typed domain errors. Cores throw these; the shared HTTP error middleware
 * maps them to responses. Anything else becomes a 500 with no detail.
 */
export class DomainError extends Error {
  override name = 'DomainError';
}

/** The input broke one or more rules; each entry names the field and the problem. */
export class ValidationError extends DomainError {
  override name = 'ValidationError';
  constructor(
    readonly errors: string[],
    message = 'request body is invalid',
  ) {
    super(message);
  }
}

/** Missing, unknown, revoked or out-of-scope key, or another application's data. */
export class Forbidden extends DomainError {
  override name = 'Forbidden';
  constructor() {
    super('Forbidden');
  }
}

export class NotFound extends DomainError {
  override name = 'NotFound';
}

export class Conflict extends DomainError {
  override name = 'Conflict';
}
