/**
 * The middleware stack every operation shares, in its one order: logging
 * context → (CORS, for browser-key operations) → error mapping → header
 * normalising → API key → (browser origin) → (the query's app_id → body guard
 * and parse → schema) or (query schema). A handler adds only its core.
 */
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { defaultMaxBodyBytes } from '../manifest/body-limits';
import type { Scope } from '../domain/api-keys';
import { Forbidden } from '../domain/errors';
import type { Validator } from '../domain/validation';
import { logger } from '../runtime/logger';
import { apiKeyAuth, type KeyResolver } from './auth';
import { browserCors, type OriginPolicy } from './cors';
import { httpErrors, type ErrorStyle } from './errors';
import { jsonBody, validBody, validQuery } from './json-body';
import type { ApiEvent, ApiResult, AuthedContext, JsonEvent, QueryEvent } from './types';

/** The ports of the key check: a handler factory takes them, the wiring passes the container's (functions/adapters/stores.ts). */
export interface KeyPorts {
  keys: KeyResolver;
}

/** The ports of an operation a browser key may call: the key check's, and where its application's site origins come from. */
export interface BrowserPorts extends KeyPorts {
  origins: OriginPolicy;
}

export interface ApiOptions extends KeyPorts {
  scopes: readonly Scope[];
  errors?: ErrorStyle;
  /** Where browser-key operations look up their application's site origins (CORS); required with the browser scope. */
  origins?: OriginPolicy;
}

/**
 * What every operation starts with, up to and including the key check. An
 * operation a browser key may call also answers CORS (functions/http/cors.ts).
 */
function authenticated<E>(options: ApiOptions, method: 'GET' | 'POST') {
  const stack = middy<E, ApiResult, Error, AuthedContext>().use(injectLambdaContext(logger));
  if (!options.scopes.includes('browser')) {
    return stack
      .use(httpErrors(options.errors))
      .use(httpHeaderNormalizer())
      .use(apiKeyAuth(options.keys, options.scopes) as middy.MiddlewareObj<E>);
  }
  if (!options.origins) throw new Error('an operation a browser key may call needs the origins of its applications');
  const cors = browserCors(options.origins, method);
  return stack
    .use(cors.answer as middy.MiddlewareObj<E>)
    .use(httpErrors(options.errors))
    .use(httpHeaderNormalizer())
    .use(apiKeyAuth(options.keys, options.scopes) as middy.MiddlewareObj<E>)
    .use(cors.originCheck as middy.MiddlewareObj<E>);
}

export interface JsonApiOptions<T> extends ApiOptions {
  validate: Validator<T>;
  /** The operation's body bound, `maxBodyBytesOf(id)` (functions/manifest/body-limits.ts); by default, defaultMaxBodyBytes. */
  maxBytes?: number;
}

/**
 * The 403 rule for the query string of an operation with a body (docs/api.md,
 * "Keys"): the SDK names its application there for CORS, and every `app_id`
 * it holds must be the key's, as the body's must. An operation that reads
 * checks its validated query in its core.
 */
const queryNamesTheKeysApp: middy.MiddlewareObj<ApiEvent> = {
  before: async (request) => {
    const { appId } = (request.context as AuthedContext).principal;
    const { multiValueQueryStringParameters: many, queryStringParameters: one } = request.event;
    const named = many?.app_id ?? (one?.app_id === undefined ? [] : [one.app_id]);
    if (named.some((id) => id !== appId)) throw new Forbidden();
  },
};

/** An operation with a JSON body. */
export function jsonApi<T>(options: JsonApiOptions<T>) {
  return authenticated<JsonEvent<T>>(options, 'POST')
    .use(queryNamesTheKeysApp as middy.MiddlewareObj<JsonEvent<T>>)
    .use(jsonBody({ maxBytes: options.maxBytes ?? defaultMaxBodyBytes }))
    .use(validBody(options.validate));
}

/** An operation that reads: its query string is validated, and it has no body. */
export function queryApi<Q>(options: ApiOptions & { validate: Validator<Q> }) {
  return authenticated<QueryEvent<Q>>(options, 'GET').use(validQuery(options.validate));
}
