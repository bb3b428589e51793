/**
 * The CRM's reserved attributes over HTTP (docs/api.md, "CRM attributes"):
 * a server key sets them, typed, through any directive that suits their
 * type; a wrong value is a 400 naming the field, and nothing is written; a
 * browser key may not touch them, even with the profile's proof.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { request } from '../support/http';
import { identitySecretOf, proofOf } from '../support/identity';
import { testStack, type TestStack } from '../support/local-stack';
import { applyAndRead, profileRecord, readProfile } from '../support/profiles';

let stack: TestStack;
let identitySecret: string;
beforeAll(async () => {
  stack = await testStack();
  identitySecret = await identitySecretOf(stack);
});

const serverPost = (body: unknown) => request(stack.baseUrl, 'POST', '/profiles', { key: stack.dev.server_key, body });
const browserPost = (body: unknown) =>
  request(stack.baseUrl, 'POST', `/profiles?app_id=${stack.dev.app_id}`, {
    key: stack.dev.browser_key,
    body,
    headers: { Origin: new URL(stack.baseUrl).origin },
  });

describe('a server key', () => {
  test('sets every CRM attribute, typed, at the top level and through urm_set, and reads them back as sent', async () => {
    const id = `crm-${randomUUID()}`;

    const attributes = await applyAndRead(stack, id, [
      profileRecord(stack, id, { urm_rg_status: 'cool_off', urm_rg_until: '2026-12-24T00:00:00Z' }),
      profileRecord(stack, id, {
        urm_set: { urm_consent_email: true, urm_consent_sms: false, urm_timezone: 'Europe/Malta', urm_language: 'pt-BR' },
        urm_unique_append: { urm_unsubscribed_topics: ['sports', 'vip'] },
      }),
    ]);

    expect(attributes).toEqual({
      urm_rg_status: 'cool_off',
      urm_rg_until: '2026-12-24T00:00:00Z',
      urm_consent_email: true,
      urm_consent_sms: false,
      urm_timezone: 'Europe/Malta',
      urm_language: 'pt-BR',
      urm_unsubscribed_topics: ['sports', 'vip'],
    });
  });

  test('removes a topic, unsets a status (null, which counts as none) and deletes a consent like any attribute', async () => {
    const id = `crm-${randomUUID()}`;

    const attributes = await applyAndRead(stack, id, [
      profileRecord(stack, id, { urm_rg_status: 'self_excluded', urm_consent_sms: true, urm_unsubscribed_topics: ['casino', 'sports'] }),
      profileRecord(stack, id, { urm_remove: { urm_unsubscribed_topics: ['casino'] }, urm_unset: ['urm_rg_status'], urm_delete: ['urm_consent_sms'] }),
    ]);

    expect(attributes).toEqual({ urm_rg_status: null, urm_unsubscribed_topics: ['sports'] });
  });

  test.each([
    [{ urm_rg_status: 'excluded' }, 'urm_rg_status must be one of "none", "cool_off", "self_excluded", "blocked"'],
    [{ urm_set: { urm_rg_until: 'next week' } }, 'urm_set.urm_rg_until must be an ISO 8601 date-time'],
    [{ urm_consent_email: 'yes' }, 'urm_consent_email must be'],
    [{ urm_set_if_null: { urm_consent_sms: 1 } }, 'urm_set_if_null.urm_consent_sms must be'],
    [{ urm_timezone: 'CET+1' }, 'urm_timezone must be an IANA time zone name'],
    [{ urm_set: { urm_timezone: 'Mars/Olympus' } }, 'urm_set.urm_timezone must be an IANA time zone name'],
    [{ urm_language: 'english please' }, 'urm_language must be a BCP 47 language tag'],
    [{ urm_unsubscribed_topics: 'sports' }, 'urm_unsubscribed_topics must be'],
    [{ urm_append: { urm_unsubscribed_topics: [7] } }, 'urm_append.urm_unsubscribed_topics[0] must be'],
    [{ urm_unsubscribed_topics: ['sports', 'live casino'] }, 'urm_unsubscribed_topics[1] must be a topic name'],
    [{ urm_append: { urm_consent_email: [true] } }, 'urm_append.urm_consent_email'],
    [{ urm_add: { urm_consent_email: 1 } }, 'urm_add.urm_consent_email'],
  ])('gets a 400 naming the field for %j, and nothing is written', async (fields, message) => {
    const id = `crm-${randomUUID()}`;

    const response = await serverPost([profileRecord(stack, id, fields)]);

    expect(response.status).toBe(400);
    expect((response.body.errors as string[]).some((error) => error.replace(/^\[0\]\./, '').startsWith(message))).toBe(true);
    expect((await readProfile(stack, id)).status).toBe(404);
  });
});

describe('a browser key', () => {
  test.each([
    ['at the top level', { urm_consent_email: true }],
    ['through urm_set', { urm_set: { urm_rg_status: 'none' } }],
    ['through urm_unset', { urm_unset: ['urm_rg_status'] }],
    ['through urm_remove', { urm_remove: { urm_unsubscribed_topics: ['vip'] } }],
  ])('may not write a CRM attribute %s, even with the profile proof: 403, nothing written', async (_where, fields) => {
    const id = `crm-${randomUUID()}`;

    const response = await browserPost([profileRecord(stack, id, { ...fields, urm_profile_id_hash: proofOf(identitySecret, id) })]);

    expect(response.status).toBe(403);
    expect((await readProfile(stack, id)).status).toBe(404);
  });
});
