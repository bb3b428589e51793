/**
 * The local stack runs every handler in one process, many at once, all
 * logging through one Powertools logger module. Each invocation must still
 * log with its own function name and request id, as it does alone in Lambda,
 * and a handler that never set its context must not borrow another's.
 */
import { beforeAll, expect, jest, test } from '@jest/globals';
import middy from '@middy/core';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context } from 'aws-lambda';
import { lambdaContext } from '../../../lib/local/api-gateway';
import { invoke, scopeInvocations } from '../../../lib/local/invocation';

// Development mode writes through the global console, where the test reads the lines.
process.env.POWERTOOLS_DEV = 'true';
const logger = new Logger({ serviceName: 'urm', logLevel: 'INFO' });
let lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  expect(await scopeInvocations()).toBe(true);
  jest.spyOn(console, 'info').mockImplementation((line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>));
});

/** A handler that logs once `go` resolves, so invocations can be interleaved by hand. */
const handler = (withContext: boolean) => {
  const stack = middy(async (event: { go: Promise<void> }) => {
    await event.go;
    logger.info('done');
  });
  return (withContext ? stack.use(injectLambdaContext(logger)) : stack) as unknown as (event: { go: Promise<void> }, context: Context) => Promise<void>;
};

test('two invocations at once each log with their own function and request id', async () => {
  lines = [];
  let release!: () => void;
  const first = lambdaContext('IngestProfilesFunction', 1000);
  const second = lambdaContext('RecordEventsFunction', 1000);

  // The first starts, sets its context and waits; the second starts, sets its own and logs; then the first logs.
  const running = invoke(handler(true), { go: new Promise<void>((resolve) => (release = resolve)) }, first);
  await invoke(handler(true), { go: Promise.resolve() }, second);
  release();
  await running;

  expect(lines.map((line) => [line.function_name, line.function_request_id])).toEqual([
    ['RecordEventsFunction', second.awsRequestId],
    ['IngestProfilesFunction', first.awsRequestId],
  ]);
});

test('a handler without the logging context logs no request id, even while another invocation has one', async () => {
  lines = [];
  let release!: () => void;

  const running = invoke(handler(true), { go: new Promise<void>((resolve) => (release = resolve)) }, lambdaContext('SendPushFunction', 1000));
  await invoke(handler(false), { go: Promise.resolve() }, lambdaContext('SetAffiliateFunction', 1000));
  release();
  await running;

  expect(lines[0].function_request_id).toBe(undefined);
  expect(lines[1].function_name).toBe('SendPushFunction');
});
