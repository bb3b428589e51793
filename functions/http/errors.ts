/**
 * The one error mapping: typed errors thrown anywhere in a request become the
 * response bodies of docs/api.md. Anything unexpected is logged and answered
 * with a 500 that says nothing of the inside.
 */
import type middy from '@middy/core';
import { Conflict, Forbidden, NotFound, ValidationError } from '../domain/errors';
import { logger } from '../runtime/logger';
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

/** A body over the operation's bound: 413 `{"message"}` naming the bound, in every style (as API Gateway's own 413). */
export class BodyTooLarge extends HttpProblem {
  constructor(message: string) {
    super(413, message);
  }
}

export interface ErrorStyle {
  /**
   * `message`: `{"message", "errors"?}` (most operations);
   * `errors`: `{"errors": [...]}` (register_affiliate), where a body that is
   * not JSON is `{"errors": ["body is invalid"]}`.
   * A 403 is `{"message": "Forbidden"}` in every style (docs/api.md, "Affiliates").
   */
  style: 'message' | 'errors';
}

/** What middy's createError throws: a status, and whether its message may be shown. */
interface MiddyHttpError extends Error {
  statusCode?: number;
  status?: number;
  expose?: boolean;
  cause?: { package?: string };
}

/** A 4xx middy may show the caller: the request's fault, not ours. */
function isClientError(error: unknown): error is MiddyHttpError {
  const { statusCode, status, expose } = (error ?? {}) as MiddyHttpError;
  const code = statusCode ?? status;
  return typeof code === 'number' && code >= 400 && code < 500 && expose === true;
}

export function toErrorResponse(error: unknown, { style }: ErrorStyle = { style: 'message' }): ApiResult {
  // The bodies the OpenAPI document publishes (./error-bodies.ts), checked here at compile time.
  const answer = (statusCode: number, message: string, errors?: string[]) =>
    json(
      statusCode,
      (style === 'errors' ? { errors: errors ?? [message] } : errors ? { message, errors } : { message }) satisfies ErrorListBody | InvalidRequestBody,
    );

  if (error instanceof ValidationError) return answer(400, error.message, error.errors);
  if (error instanceof Forbidden) return json(403, { message: 'Forbidden' } satisfies MessageBody);
  if (error instanceof BodyTooLarge) return json(413, { message: error.message } satisfies MessageBody);
  if (error instanceof NotFound) return answer(404, error.message);
  if (error instanceof Conflict) return answer(409, error.message);
  if (error instanceof HttpProblem) return answer(error.statusCode, error.message);

  // The parser's only refusal left is a body that is not JSON (the Content-Type is checked before it: json-body.ts).
  if (isClientError(error) && error.cause?.package === '@middy/http-json-body-parser') {
    return answer(400, 'request body is invalid', [style === 'errors' ? 'body is invalid' : 'request body must be valid JSON']);
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
