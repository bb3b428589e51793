/**
 * The middleware stack every JSON operation shares, in its one order:
 * logging context → error mapping → header normalising → API key → body
 * guard and parse → schema. A handler adds only its core.
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
import { jsonBody, validBody } from './json-body';
import type { ApiResult, AuthedContext, JsonEvent } from './types';

/** Default bound of a JSON body; ingestion sets its own. */
const DEFAULT_MAX_BYTES = 256 * 1024;

let sharedResolver: KeyResolver | undefined;
/** The container's key resolver (and its cache), made on first use. */
export function keyResolver(): KeyResolver {
  sharedResolver ??= new KeyResolver(new DynamoKeyStore(dynamo, requireEnv(tables.keys.envVar)));
  return sharedResolver;
}

export interface JsonApiOptions<T> {
  scopes: readonly Scope[];
  validate: Validator<T>;
  maxBytes?: number;
  errors?: ErrorStyle;
  keys?: KeyResolver;
}

export function jsonApi<T>(options: JsonApiOptions<T>) {
  return middy<JsonEvent<T>, ApiResult, Error, AuthedContext>()
    .use(injectLambdaContext(logger))
    .use(httpErrors(options.errors))
    .use(httpHeaderNormalizer())
    .use(apiKeyAuth(options.keys ?? keyResolver(), options.scopes))
    .use(jsonBody({ maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES }))
    .use(validBody(options.validate));
}
