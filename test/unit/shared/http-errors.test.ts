import { beforeAll, describe, expect, jest, test } from '@jest/globals';
import { toErrorResponse } from '../../../functions/http/errors';
import { logger } from '../../../functions/runtime/logger';

/** Shaped as @middy/util's createError makes it (the real one reaches toErrorResponse in the handler tests). */
const parserError = (status: number, message: string) =>
  Object.assign(new Error(message), {
    status,
    statusCode: status,
    expose: status < 500,
    cause: { package: '@middy/http-json-body-parser', data: '{"app_id":' },
  });
const answer = (error: unknown, style: 'message' | 'errors' = 'message') => {
  const response = toErrorResponse(error, { style });
  return { status: response.statusCode, body: JSON.parse(response.body) };
};

beforeAll(() => void jest.spyOn(logger, 'error').mockImplementation(() => {}));

describe("toErrorResponse for middy's errors", () => {
  test("answers 400 for the body parser's client error, whatever its message", () => {
    expect(answer(parserError(415, 'Invalid or malformed JSON was provided'))).toEqual({
      status: 400,
      body: { message: 'request body is invalid', errors: ['request body must be valid JSON'] },
    });
    expect(answer(parserError(422, 'anything'))).toEqual({
      status: 400,
      body: { message: 'request body is invalid', errors: ['request body must be valid JSON'] },
    });
  });

  test('answers {"errors": ["body is invalid"]} in the errors style', () => {
    expect(answer(parserError(415, 'Invalid or malformed JSON was provided'), 'errors')).toEqual({ status: 400, body: { errors: ['body is invalid'] } });
  });

  test('answers 500 without its message for an error middy must not show', () => {
    expect(answer(parserError(500, 'the parser broke at 10.0.0.1'))).toEqual({ status: 500, body: { message: 'internal server error' } });
    const hidden = Object.assign(parserError(415, 'Invalid or malformed JSON was provided'), { expose: false });
    expect(answer(hidden)).toEqual({ status: 500, body: { message: 'internal server error' } });
  });
});
