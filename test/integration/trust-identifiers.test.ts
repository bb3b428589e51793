/**
 * Lookalike identifiers over HTTP on the local stack (issue 25, item 11): a
 * profile id or an affiliate's username holding a bidi control or a
 * zero-width character is a 400 naming the field, nothing is written, and the
 * served OpenAPI document shows the rule.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, expect, test } from '@jest/globals';
import { portableIdentifierPattern } from '../../functions/domain/text';
import { registration } from '../support/affiliates';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await testStack();
});

const refusal = (field: string) => expect.stringMatching(new RegExp(`^${field.replace(/[[\].]/g, '\\$&')} must not contain `));

test('a profile id with a right-to-left override is refused naming the field', async () => {
  const lookalike = `player-${randomUUID()}\u202E1`;

  const response = await request(stack.baseUrl, 'POST', '/events', {
    key: stack.dev.server_key,
    body: [{ app_id: stack.dev.app_id, profile_id: lookalike, event: 'deposit', urm_date_time: new Date().toISOString() }],
  });

  expect(response.status).toBe(400);
  expect(response.body.errors).toEqual([refusal('[0].profile_id')]);
});

test('a read of a profile whose id holds a zero-width space is refused naming profile_id', async () => {
  const response = await request(stack.baseUrl, 'GET', `/profiles/${encodeURIComponent('player\u200B1')}?app_id=${stack.dev.app_id}`, {
    key: stack.dev.server_key,
  });

  expect(response.status).toBe(400);
  expect(response.body.errors).toEqual([refusal('profile_id')]);
});

test("an affiliate's username with a zero-width space is refused naming username", async () => {
  const response = await request(stack.baseUrl, 'POST', '/api/register_affiliate', {
    key: stack.dev.server_key,
    body: { ...registration(stack.dev.app_id), username: 'ad\u200Bmin' },
  });

  expect(response.status).toBe(400);
  expect(response.body.errors).toEqual([refusal('username')]);
});

test('the served OpenAPI document shows the one identifier pattern on the username', async () => {
  const document = await fetch(`${stack.baseUrl}/openapi.json`).then((answer) => answer.json() as Promise<Record<string, any>>);

  const username = document.paths['/api/register_affiliate'].post.requestBody.content['application/json'].schema.properties.username;

  expect(username.pattern).toBe(portableIdentifierPattern);
});
