/**
 * The middleware stack every operation shares, in its one order: logging
 * context → (CORS, for browser-key operations) → error mapping → header
 * normalising → API key → (browser origin) → (body guard and parse → schema)
 * or (query schema). A handler adds only its core.
 */
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { defaultMaxBodyBytes } from '../manifest/body-limits';
import { tables } from '../manifest/resources';
import { DynamoAppStore } from '../adapters/dynamo-app-store';
import { DynamoKeyStore } from '../adapters/dynamo-key-store';
import { dynamo } from '../adapters/clients/dynamo';
import { requireEnv } from '../runtime/config';
import type { Scope } from '../domain/api-keys';
import type { Validator } from '../domain/validation';
import { logger } from '../runtime/logger';
import { apiKeyAuth, KeyResolver } from './auth';
import { AppOrigins, browserCors, type OriginPolicy } from './cors';
import { httpErrors, type ErrorStyle } from './errors';
import { jsonBody, validBody, validQuery } from './json-body';
import type { ApiResult, AuthedContext, JsonEvent, QueryEvent } from './types';

let sharedResolver: KeyResolver | undefined;
/** The container's key resolver (and its cache), made on first use. */
export function keyResolver(): KeyResolver {
  sharedResolver ??= new KeyResolver(new DynamoKeyStore(dynamo, requireEnv(tables.keys.envVar)));
  return sharedResolver;
}

let sharedOrigins: OriginPolicy | undefined;
/** The container's site origins of applications (and their cache), made on first use. */
export function appOrigins(): OriginPolicy {
  sharedOrigins ??= new AppOrigins(new DynamoAppStore(dynamo, requireEnv(tables.apps.envVar)));
  return sharedOrigins;
}

export interface ApiOptions {
  scopes: readonly Scope[];
  errors?: ErrorStyle;
  keys?: KeyResolver;
  /** Where browser-key operations look up their application's site origins (CORS). */
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
      .use(apiKeyAuth(options.keys ?? keyResolver(), options.scopes) as middy.MiddlewareObj<E>);
  }
  const cors = browserCors(options.origins ?? appOrigins(), method);
  return stack
    .use(cors.answer as middy.MiddlewareObj<E>)
    .use(httpErrors(options.errors))
    .use(httpHeaderNormalizer())
    .use(apiKeyAuth(options.keys ?? keyResolver(), options.scopes) as middy.MiddlewareObj<E>)
    .use(cors.originCheck as middy.MiddlewareObj<E>);
}

export interface JsonApiOptions<T> extends ApiOptions {
  validate: Validator<T>;
  /** The operation's body bound, `maxBodyBytesOf(id)` (functions/manifest/body-limits.ts); by default, defaultMaxBodyBytes. */
  maxBytes?: number;
}

/** An operation with a JSON body. */
export function jsonApi<T>(options: JsonApiOptions<T>) {
  return authenticated<JsonEvent<T>>(options, 'POST')
    .use(jsonBody({ maxBytes: options.maxBytes ?? defaultMaxBodyBytes }))
    .use(validBody(options.validate));
}

/** An operation that reads: its query string is validated, and it has no body. */
export function queryApi<Q>(options: ApiOptions & { validate: Validator<Q> }) {
  return authenticated<QueryEvent<Q>>(options, 'GET').use(validQuery(options.validate));
}
