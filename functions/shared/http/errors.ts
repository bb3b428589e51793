/**
 * The one error mapping: typed errors thrown anywhere in a request become the
 * spec's response bodies. Anything unexpected is logged and answered with a
 * 500 that says nothing of the inside.
 */
import type middy from '@middy/core';
import { Conflict, Forbidden, NotFound, ValidationError } from '../domain/errors';
import { logger } from '../logger';
import type { ErrorListBody, InvalidRequestBody, MessageBody } from './error-bodies';
import { json } from './response';
import type { ApiResult } from './types';

/** An HTTP-level refusal that is not a domain rule (media types, methods). */
export class HttpProblem extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ErrorStyle {
  /**
   * `message`: `{"message", "errors"?}` (most operations);
   * `errors`: `{"errors": [...]}` (register_affiliate, spec section 7), where a
   * body that is not JSON is `{"errors": ["body is invalid"]}`.
   * A 403 is `{"message": "Forbidden"}` in every style (spec section 7).
   */
  style: 'message' | 'errors';
}

interface MiddyHttpError extends Error {
  statusCode?: number;
  cause?: { package?: string };
}

export function toErrorResponse(error: unknown, { style }: ErrorStyle = { style: 'message' }): ApiResult {
  // The bodies the OpenAPI document publishes (./error-bodies.ts), checked here at compile time.
  const answer = (statusCode: number, message: string, errors?: string[]) =>
    json(statusCode, (style === 'errors' ? { errors: errors ?? [message] } : errors ? { message, errors } : { message }) satisfies ErrorListBody | InvalidRequestBody);

  if (error instanceof ValidationError) return answer(400, error.message, error.errors);
  if (error instanceof Forbidden) return json(403, { message: 'Forbidden' } satisfies MessageBody);
  if (error instanceof NotFound) return answer(404, error.message);
  if (error instanceof Conflict) return answer(409, error.message);
  if (error instanceof HttpProblem) return answer(error.statusCode, error.message);

  const middyError = error as MiddyHttpError;
  if (middyError?.cause?.package === '@middy/http-json-body-parser') {
    return middyError.message === 'Unsupported Media Type'
      ? answer(415, 'Content-Type must be application/json')
      : answer(400, 'request body is invalid', [style === 'errors' ? 'body is invalid' : 'request body must be valid JSON']);
  }

  logger.error('Request failed', { error: error as Error });
  return answer(500, 'internal server error');
}

export function httpErrors(options: ErrorStyle = { style: 'message' }): middy.MiddlewareObj {
  return {
    onError: async (request) => {
      request.response = toErrorResponse(request.error, options);
    },
  };
}
