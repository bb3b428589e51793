/** Builders for the events and contexts Lambda hands a handler, for handler tests. */
import type { PutRecordsCommandInput } from '@aws-sdk/client-kinesis';
import { hashApiKey } from '../../functions/domain/api-keys';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { lambdaContext, toProxyEvent } from '../../lib/local/api-gateway';
import type { IncomingMessage } from 'node:http';

export function apiEvent(options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer }): APIGatewayProxyEvent {
  const rawHeaders = Object.entries(options.headers ?? {}).flat();
  const request = {
    method: options.method ?? 'POST',
    rawHeaders,
    headers: Object.fromEntries(Object.entries(options.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    httpVersion: '1.1',
    socket: { remoteAddress: '127.0.0.1' },
  } as unknown as IncomingMessage;
  const url = new URL(options.path, 'http://localhost');
  return toProxyEvent(request, url, Buffer.from(options.body ?? ''), { resource: url.pathname, pathParameters: null });
}

/** A function's context with `remainingMs` left of its time. */
export function context(name = 'TestFunction', remainingMs = 10_000): Context {
  return lambdaContext(name, remainingMs);
}

/** What an API handler is, for tests that call one directly. */
export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<import('aws-lambda').APIGatewayProxyResult>;

/**
 * A handler a factory made, as API Gateway calls it: with the raw event and a
 * plain context (its middlewares parse the body and add the principal, which
 * its typed event and context already promise).
 */
export function asProxyHandler(handler: object): ProxyHandler {
  return handler as ProxyHandler;
}

/**
 * The environment a function gets from the stack, with test credentials: set
 * it before importing a handler, which reads it at module scope (cold start).
 */
export function setFunctionEnv(variables: Record<string, string>): void {
  Object.assign(process.env, { AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', ...variables });
}

/** The keys table a handler test's DynamoDB mock answers from: each key's record under the SHA-256 the key check looks up. */
export function keysByHash(keys: Record<string, object>): Map<string, object> {
  return new Map(Object.entries(keys).map(([key, record]) => [hashApiKey(key), { key_hash: hashApiKey(key), ...record }]));
}

/** Kinesis's answer to a PutRecords that takes every record, in order. */
export function acceptedPutRecords(input: PutRecordsCommandInput) {
  return {
    FailedRecordCount: 0,
    Records: input.Records!.map((_, i) => ({ SequenceNumber: `4968${i}`, ShardId: 'shardId-000000000001' })),
  };
}
