/**
 * JSON requests: bounded size (checked before anything is parsed), an Accept
 * header that allows JSON, a JSON Content-Type, well-formed UTF-8, and the
 * body parsed by @middy/http-json-body-parser. Expects lower-cased headers
 * (@middy/http-header-normalizer runs first).
 */
import type middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { ValidationError } from '../domain/errors';
import type { Validator } from '../domain/validation';
import { decodeUtf8 } from '../domain/text';
import { BodyTooLarge, HttpProblem } from './errors';
import type { ApiEvent } from './types';

const ACCEPTS_JSON = /(^|,)\s*(application\/json|application\/\*|\*\/\*)\s*(;|,|$)/i;
/** @middy/http-json-body-parser's own test of the Content-Type. */
const JSON_MEDIA_TYPE = /^application\/(.+\+)?json($|;.+)/;

export function describeBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

// biome-ignore lint/suspicious/noExplicitAny: used in chains of every event type; middy types a middleware by the event it is used with.
export function jsonBody(options: { maxBytes: number }): middy.MiddlewareObj<any>[] {
  const guard: middy.MiddlewareObj<ApiEvent> = {
    before: async ({ event }) => {
      const accept = event.headers?.accept;
      // RFC 9110: no Accept header means any media type is acceptable.
      if (accept !== undefined && !ACCEPTS_JSON.test(accept)) {
        throw new HttpProblem(406, 'Accept must allow application/json');
      }
      const body = event.body ?? '';
      const size = event.isBase64Encoded ? Buffer.byteLength(body, 'base64') : Buffer.byteLength(body, 'utf8');
      if (size > options.maxBytes) {
        throw new BodyTooLarge(`request body must be at most ${describeBytes(options.maxBytes)}`);
      }
      // Here rather than in the parser: it answers 415 for a body that is not JSON too, telling the two apart only by message text.
      if (!JSON_MEDIA_TYPE.test(event.headers?.['content-type'] ?? '')) {
        throw new HttpProblem(415, 'Content-Type must be application/json');
      }
      // API Gateway hands every body over as bytes (base64; binaryMediaTypes */*, lib/aws/constructs/ingestion-api.ts):
      // a text body would already have its invalid bytes replaced by U+FFFD, indistinguishable from a sent one.
      if (event.isBase64Encoded) {
        const text = decodeUtf8(Buffer.from(body, 'base64'));
        if (text === undefined) throw new ValidationError(['request body must be valid UTF-8']);
        event.body = text;
        event.isBase64Encoded = false;
      }
    },
  };
  return [guard, httpJsonBodyParser({ disableContentTypeError: false })];
}

/** Validates the parsed body against a compiled schema (400 with every problem found). */
export function validBody<T>(validate: Validator<T>): middy.MiddlewareObj<{ body: unknown }> {
  return {
    before: async ({ event }) => {
      event.body = validate(event.body);
    },
  };
}

/** Validates the query string (absent counts as empty) against a compiled schema. */
export function validQuery<Q>(validate: Validator<Q>): middy.MiddlewareObj<{ queryStringParameters: unknown }> {
  return {
    before: async ({ event }) => {
      event.queryStringParameters = validate(event.queryStringParameters ?? {});
    },
  };
}
