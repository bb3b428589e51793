/**
 * Bad text is refused, not stored, over HTTP against the local stack
 * (docs/api.md, "Records" and "Security: key checks, body bounds, logs"): a
 * body that is not valid UTF-8 is a 400 whatever it holds, and a control
 * character or an unpaired surrogate in an identifier or event name is a 400
 * naming the field. Nothing of such a request is written.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, expect, test } from '@jest/globals';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';
import { applyAndRead, at, readTimeline, send, until } from '../support/profiles';

let stack: TestStack;
beforeAll(async () => {
  stack = await testStack();
});

const post = (path: string, rawBody: string | Uint8Array) => request(stack.baseUrl, 'POST', path, { key: stack.dev.server_key, rawBody });

test('a profile record with an invalid UTF-8 byte is refused, not stored as U+FFFD', async () => {
  const profileId = `latin1-${randomUUID()}`;
  const json = JSON.stringify([{ app_id: stack.dev.app_id, profile_id: profileId, urm_date_time: at, city: 'caf#' }]);
  const body = Buffer.from(json.replace('caf#', 'caf\u00e9'), 'latin1');

  const response = await post('/profiles', body);

  expect(response.status).toBe(400);
  expect(response.body).toEqual({ message: 'request body is invalid', errors: ['request body must be valid UTF-8'] });
  expect(await applyAndRead(stack, profileId, [])).toEqual({});
});

test('a NUL in profile_id and an unpaired surrogate in an event name are refused naming the field; nothing reaches the timeline', async () => {
  const profileId = `nul-${randomUUID()}`;
  const records = [
    { app_id: stack.dev.app_id, profile_id: `${profileId}\u0000`, event: 'deposit', urm_date_time: at },
    { app_id: stack.dev.app_id, profile_id: profileId, event: 'deposit\ud800', urm_date_time: at },
  ];

  const response = await post('/events', JSON.stringify(records));

  expect(response.status).toBe(400);
  expect(response.body).toEqual({
    message: 'request body is invalid',
    errors: [
      '[0].profile_id must not contain control characters, bidi controls, invisible characters or unpaired surrogates',
      '[1].event must not contain control characters, bidi controls, invisible characters or unpaired surrogates',
    ],
  });
  // Anything written before the marker (same profile, same shard) would be on the timeline with it.
  await send(stack, '/events', [{ app_id: stack.dev.app_id, profile_id: profileId, event: 'marker', urm_date_time: at }]);
  const timeline = await until(
    () => readTimeline(stack, profileId),
    (events) => events.length > 0,
    'the marker event',
  );
  expect(timeline.map((entry) => entry.event)).toEqual(['marker']);
});
