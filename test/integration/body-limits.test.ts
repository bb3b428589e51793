/**
 * Request bodies are bounded before anything is parsed (issue 9,
 * "Throttling and abuse"), over HTTP against the local stack: each operation's
 * bound is declared once (`maxBodyBytes` in functions/manifest/body-limits.ts), its handler
 * refuses a body one byte over it with a 413 that names the bound, a body of
 * exactly the bound passes the size check, the key is checked first, and the
 * local server answers as API Gateway and the handler would. Every POST
 * operation with an API key is covered, new ones included.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { maxBodyBytesOf } from '../../functions/manifest/body-limits';
import { httpOperations, type HttpOperation, keyAuthenticated } from '../../functions/manifest/operations';
import { request, type JsonResponse } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';
import { applyAndRead, at, readTimeline, send, until } from '../support/profiles';

let stack: TestStack;
beforeAll(async () => {
  stack = await testStack();
});

const MiB = 1024 * 1024;
/** How a refusal names a bound (docs/api.md, "Security: key checks, body bounds, logs": a 413 whose message names the bound). */
const named = (bytes: number) => (bytes % MiB === 0 ? `${bytes / MiB} MiB` : `${bytes / 1024} KiB`);
const tooLarge = (bytes: number) => `request body must be at most ${named(bytes)}`;

/** `json` followed by spaces up to exactly `size` bytes: still the same JSON document. */
function padded(json: string, size: number): string {
  const missing = size - Buffer.byteLength(json);
  expect(missing >= 0).toBeTruthy();
  return json + ' '.repeat(missing);
}

const post = (path: string, key: string, rawBody: string) => request(stack.baseUrl, 'POST', path, { key, rawBody });
const mentions = (response: JsonResponse, text: string) => JSON.stringify(response.body).includes(text);

/** The POST operations an API key opens (their functions read the keys table). */
const keyedPosts = httpOperations.filter((operation) => operation.method === 'POST' && keyAuthenticated(operation));

/** A key of the scope the operation takes: the first of the demo keys it does not refuse. */
async function keyFor(operation: HttpOperation): Promise<string> {
  for (const key of [stack.dev.server_key, stack.dev.comms_key, stack.dev.browser_key]) {
    if ((await post(operation.path, key, '{}')).status !== 403) return key;
  }
  throw new Error(`no demo key opens ${operation.path}`);
}

describe('every POST operation bounds its body', () => {
  for (const operation of keyedPosts) {
    const limit = maxBodyBytesOf(operation.id);

    test(`${operation.path}: one byte over ${named(limit)} is a 413 naming the bound`, async () => {
      const response = await post(operation.path, await keyFor(operation), padded('{}', limit + 1));

      expect(response.status).toBe(413);
      expect(response.body).toEqual({ message: tooLarge(limit) });
    });

    test(`${operation.path}: exactly ${named(limit)} passes the size check`, async () => {
      const response = await post(operation.path, await keyFor(operation), padded('{}', limit));

      expect(mentions(response, 'request body must be at most')).toBe(false);
      expect(response.status).not.toBe(413);
    });

    test(`${operation.path}: over the bound with an unknown key is still the plain 403: the key comes first`, async () => {
      const response = await post(operation.path, `urm_server_${'A'.repeat(43)}`, padded('{}', limit + 1));

      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: 'Forbidden' });
    });
  }

  test("a body over API Gateway's 10 MiB is refused by the gateway itself: 413", async () => {
    const response = await post('/api/set_affiliate', stack.dev.server_key, padded('{}', 10 * MiB + 1));

    expect(response.status).toBe(413);
  });
});

describe('ingestion: 4 MiB of records', () => {
  const limit = maxBodyBytesOf('IngestEvents');

  /** Records of one profile (events) or several (profiles), padded so that the body is exactly `size` bytes. */
  function records(kind: 'profile' | 'event', profileId: string, size: number): string {
    // Each record small enough to be stored (an event is at most 180,000 bytes, a profile's attributes 300,000).
    const count = Math.ceil(size / 150_000);
    const build = (pad: number[]) =>
      JSON.stringify(
        pad.map((length, i) => ({
          app_id: stack.dev.app_id,
          profile_id: kind === 'event' ? profileId : `${profileId}-${i}`,
          urm_date_time: at,
          urm_insert_id: `${profileId}-${i}`,
          ...(kind === 'event' ? { event: 'padded' } : {}),
          padding: 'x'.repeat(length),
        })),
      );
    const free = size - Buffer.byteLength(build(new Array(count).fill(0)));
    const pad = new Array(count).fill(Math.floor(free / count));
    pad[0] += free - pad.reduce((sum, length) => sum + length, 0);
    const body = build(pad);
    expect(Buffer.byteLength(body)).toBe(size);
    return body;
  }

  test('POST /events of exactly 4 MiB is taken', async () => {
    const response = await post('/events', stack.dev.server_key, records('event', `limit-${randomUUID()}`, limit));

    expect(response.status).toBe(200);
    expect(response.body.FailedRecordCount).toBe(0);
  });

  test('POST /events one byte over 4 MiB is refused and nothing reaches the timeline', async () => {
    const profileId = `over-${randomUUID()}`;

    const response = await post('/events', stack.dev.server_key, records('event', profileId, limit + 1));

    expect(response.status).toBe(413);
    expect(response.body).toEqual({ message: tooLarge(limit) });
    // Anything written before the marker (same profile, same shard) would be on the timeline with it.
    await send(stack, '/events', [{ app_id: stack.dev.app_id, profile_id: profileId, event: 'marker', urm_date_time: at }]);
    const timeline = await until(
      () => readTimeline(stack, profileId),
      (events) => events.length > 0,
      'the marker event',
    );
    expect(timeline.map((entry) => entry.event)).toEqual(['marker']);
  });

  test('POST /profiles one byte over 4 MiB is refused and no profile is written', async () => {
    const profileId = `over-${randomUUID()}`;

    const response = await post('/profiles', stack.dev.server_key, records('profile', profileId, maxBodyBytesOf('IngestProfiles') + 1));

    expect(response.status).toBe(413);
    expect(response.body).toEqual({ message: tooLarge(maxBodyBytesOf('IngestProfiles')) });
    expect(await applyAndRead(stack, `${profileId}-0`, [])).toEqual({});
  });
});
