/**
 * The middleware stack every operation shares, in its one order: logging
 * context → error mapping → header normalising → API key → (body guard and
 * parse → schema) or (query schema). A handler adds only its core.
 */
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { tables } from '../../../lib/resources';
import { DynamoKeyStore } from '../adapters/dynamo-key-store';
import { dynamo } from '../clients';
import { requireEnv } from '../config';
import type { Scope } from '../domain/api-keys';
import type { Validator } from '../domain/validation';
import { logger } from '../logger';
import { apiKeyAuth, KeyResolver } from './auth';
import { httpErrors, type ErrorStyle } from './errors';
import { jsonBody, validBody, validQuery } from './json-body';
import type { ApiResult, AuthedContext, JsonEvent, QueryEvent } from './types';

/** Default bound of a JSON body; ingestion sets its own. */
const DEFAULT_MAX_BYTES = 256 * 1024;

let sharedResolver: KeyResolver | undefined;
/** The container's key resolver (and its cache), made on first use. */
export function keyResolver(): KeyResolver {
  sharedResolver ??= new KeyResolver(new DynamoKeyStore(dynamo, requireEnv(tables.keys.envVar)));
  return sharedResolver;
}

export interface ApiOptions {
  scopes: readonly Scope[];
  errors?: ErrorStyle;
  keys?: KeyResolver;
}

/** What every operation starts with, up to and including the key check. */
function authenticated<E>(options: ApiOptions) {
  return middy<E, ApiResult, Error, AuthedContext>()
    .use(injectLambdaContext(logger))
    .use(httpErrors(options.errors))
    .use(httpHeaderNormalizer())
    .use(apiKeyAuth(options.keys ?? keyResolver(), options.scopes) as middy.MiddlewareObj<E>);
}

export interface JsonApiOptions<T> extends ApiOptions {
  validate: Validator<T>;
  maxBytes?: number;
}

/** An operation with a JSON body. */
export function jsonApi<T>(options: JsonApiOptions<T>) {
  return authenticated<JsonEvent<T>>(options)
    .use(jsonBody({ maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES }))
    .use(validBody(options.validate));
}

/** An operation that reads: its query string is validated, and it has no body. */
export function queryApi<Q>(options: ApiOptions & { validate: Validator<Q> }) {
  return authenticated<QueryEvent<Q>>(options).use(validQuery(options.validate));
}
