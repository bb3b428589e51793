/** The portal's Postbacks page: how it renders, the URL refusals in words for a person, and its two handlers. */
import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand, type GetCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { h } from 'preact';
import { csrfTokenFor } from '../../../functions/domain/affiliate-portal';
import { affiliatePk } from '../../../functions/domain/funnel';
import { hashSecret, newSecret } from '../../../functions/domain/enterprise';
import { ValidationError } from '../../../functions/domain/errors';
import type { PostbackLogEntry } from '../../../functions/domain/postbacks';
import { postbackFieldErrors } from '../../../functions/affiliate-portal/postbacks';
import { PostbacksPage, type PostbacksView } from '../../../functions/affiliate-portal/pages/postbacks';
import { renderPage } from '../../../functions/affiliate-portal/render';
import { apiEvent, context, setFunctionEnv, type ProxyHandler } from '../../support/lambda';

const hostile = `<script>alert("x")</script><img src=x onerror=alert(1)>&amp;`;

const entry = (overrides: Partial<PostbackLogEntry> = {}): PostbackLogEntry => ({
  event_id: 'pb_1',
  event: 'registration',
  at: '2026-11-23T09:03:07.000Z',
  attempts: 1,
  outcome: 'delivered',
  status_code: 200,
  ...overrides,
});

const render = (overrides: Partial<PostbacksView> = {}) =>
  renderPage(h(PostbacksPage, { name: 'Ada', csrf: 'tok', postbackUrl: null, log: [], logLimit: 50, ...overrides }));

describe('postbacks page', () => {
  test('a hostile URL, field value, error, event id and delivery error are shown as text, never as markup', () => {
    const html = render({
      appName: hostile,
      name: hostile,
      postbackUrl: `https://tracker.example/pb?x="><script>x</script>`,
      form: { postback_url: `"><script>y</script>`, errors: { postback_url: hostile } },
      log: [entry({ event_id: hostile, status_code: undefined, error: hostile })],
    });

    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script>alert(&quot;x&quot;)&lt;/script>');
  });

  test('shows the current URL, every placeholder, and the log in the order given (newest first) with its columns', () => {
    const html = render({
      postbackUrl: 'https://tracker.example/pb?e={event}',
      log: [
        entry({ event_id: 'pb_new', event: 'ftd', outcome: 'retrying', attempts: 2, status_code: 503, at: '2026-11-23T10:00:00.000Z' }),
        entry({ event_id: 'pb_old', at: '2026-11-22T08:00:00.000Z' }),
      ],
    });

    expect(html).toContain('<code class="address">https://tracker.example/pb?e={event}</code>');
    for (const name of ['event', 'sub_id', 'link_id', 'affiliate_id', 'amount', 'currency', 'event_id', 'date'])
      expect(html).toContain(`<code>{${name}}</code>`);
    expect(html.indexOf('pb_new')).toBeLessThan(html.indexOf('pb_old'));
    expect(html).toMatch(
      /<th scope="row">FTD<\/th><td class="left wrap"><code>pb_new<\/code><\/td><td class="left outcome-retrying">Failed, will retry<\/td><td>2<\/td><td class="left wrap">503<\/td><td>23 Nov 2026, 10:00:00 UTC<\/td>/,
    );
    expect(html).toContain('value="rotate"');
    expect(html).toContain('value="off"');
  });

  test('with no URL it says postbacks are off and offers neither rotation nor turning off', () => {
    const html = render();

    expect(html).toContain('Postbacks are off: you have no postback URL.');
    expect(html).toContain('id="no-deliveries"');
    expect(html).not.toContain('value="rotate"');
    expect(html).not.toContain('value="off"');
  });

  test('a secret just made is shown with the note to store it; otherwise no secret is on the page', () => {
    const withSecret = render({ postbackUrl: 'https://tracker.example/pb', secret: { value: 'urm_postback_abc', rotated: true } });
    const without = render({ postbackUrl: 'https://tracker.example/pb' });

    expect(withSecret).toContain('Your new signing secret');
    expect(withSecret).toContain('urm_postback_abc');
    expect(withSecret).toContain('Store it now: it is not shown again.');
    expect(without).not.toContain('signing-secret');
  });

  test('the navigation marks Postbacks as the current page', () => {
    expect(render()).toContain('<a href="postbacks" aria-current="page">Postbacks</a>');
  });

  test("the use case's refusals of a URL are one sentence per problem next to the field; an empty field asks for an address", () => {
    const refused = new ValidationError(['url must be https', 'url has an unknown placeholder {click}'], 'postback url is invalid');

    expect(postbackFieldErrors(refused, 'http://x.example/{click}')).toEqual({
      postback_url: 'The URL must be https. The URL has an unknown placeholder {click}.',
    });
    expect(postbackFieldErrors(new ValidationError(['url is not a URL']), '  ')).toEqual({
      postback_url: 'Enter the address your tracker receives postbacks at.',
    });
  });
});

setFunctionEnv({
  APPS_TABLE: 'apps',
  AFFILIATES_TABLE: 'affiliates',
  AFFILIATE_SESSIONS_TABLE: 'sessions',
  FUNNEL_TABLE: 'funnel',
  SECRETS_BACKEND: 'dynamodb',
  SECRETS_TABLE: 'secrets',
});

const dynamo = mockClient(DynamoDBDocumentClient);
const handlers: Record<string, ProxyHandler> = {};
beforeAll(async () => {
  for (const name of ['affiliate-postbacks-page', 'affiliate-update-postbacks']) {
    handlers[name] = (await import(`../../../functions/affiliate-portal/${name}/handler`)).handler as unknown as ProxyHandler;
  }
});

let items: Record<string, Record<string, unknown> | undefined>;
const itemKey = (input: GetCommandInput) => `${input.TableName}:${Object.values(input.Key ?? {}).join()}`;
const sessionId = newSecret();

beforeEach(() => {
  dynamo.reset();
  const now = new Date().toISOString();
  items = {
    'apps:app_1': { app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z' },
    [`sessions:${hashSecret(sessionId)}`]: {
      session_hash: hashSecret(sessionId),
      app_id: 'app_1',
      affiliate_id: 'aff_1',
      created_at: now,
      last_seen: now,
      cookie_secure: false,
    },
    'affiliates:app_1,affiliate#aff_1': {
      app_id: 'app_1',
      sk: 'affiliate#aff_1',
      affiliate_id: 'aff_1',
      first_name: 'Ada',
      last_name: 'Lovelace',
      status: 'approved',
    },
  };
  dynamo.on(GetCommand).callsFake((input: GetCommandInput) => ({ Item: items[itemKey(input)] }));
  dynamo.on(QueryCommand).resolves({ Items: [] });
  dynamo.on(UpdateCommand).resolves({});
  dynamo.on(PutCommand).resolves({});
});

function portalEvent(method: 'GET' | 'POST', headers: Record<string, string>, body?: string) {
  const event = apiEvent({ method, path: '/affiliates/app_1/postbacks', headers, body });
  event.pathParameters = { app_id: 'app_1' };
  return event;
}
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const formHeaders = (cookie?: string) => ({ 'Content-Type': 'application/x-www-form-urlencoded', ...(cookie ? { Cookie: cookie } : {}) });

describe('GET /affiliates/{app_id}/postbacks handler', () => {
  test('without a session it redirects to the sign-in page and reads no settings', async () => {
    const response = await handlers['affiliate-postbacks-page'](portalEvent('GET', {}), context());

    expect(response.statusCode).toBe(303);
    expect(response.headers?.Location).toBe('login');
    expect(dynamo.commandCalls(QueryCommand)).toEqual([]);
  });

  test("with a session it shows the affiliate's URL and the log read from the affiliate's funnel partition", async () => {
    items['affiliates:app_1,affiliate#aff_1']!.postback_url = 'https://tracker.example/pb?e={event}';
    dynamo.on(QueryCommand).resolves({ Items: [{ ...entry({ event_id: 'pb_42' }) }] });

    const response = await handlers['affiliate-postbacks-page'](portalEvent('GET', { Cookie: `urm_aff_session=${sessionId}` }), context());

    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('https://tracker.example/pb?e={event}');
    expect(response.body).toContain('pb_42');
    expect(dynamo.commandCalls(QueryCommand)[0].args[0].input).toMatchObject({
      TableName: 'funnel',
      ExpressionAttributeValues: { ':pk': affiliatePk('app_1', 'aff_1') },
      Limit: 50,
    });
  });
});

describe('POST /affiliates/{app_id}/postbacks handler', () => {
  test('without its CSRF token it is refused 403 and changes nothing', async () => {
    const attempts: Record<string, string>[] = [
      { action: 'set', postback_url: 'https://tracker.example/pb' },
      { action: 'rotate', csrf: 'x'.repeat(43) },
    ];
    for (const fields of attempts) {
      const response = await handlers['affiliate-update-postbacks'](portalEvent('POST', formHeaders(`urm_aff_session=${sessionId}`), form(fields)), context());

      expect(response.statusCode).toBe(403);
      expect(response.body).toContain('This form has expired');
    }
    expect(dynamo.commandCalls(UpdateCommand)).toEqual([]);
    expect(dynamo.commandCalls(PutCommand)).toEqual([]);
  });

  test('the first URL is stored after its new secret, and the secret is shown in this answer only', async () => {
    const response = await handlers['affiliate-update-postbacks'](
      portalEvent(
        'POST',
        formHeaders(`urm_aff_session=${sessionId}`),
        form({ csrf: csrfTokenFor(sessionId), action: 'set', postback_url: ' https://tracker.example/pb?e={event} ' }),
      ),
      context(),
    );

    const secret = dynamo.commandCalls(PutCommand).find((call) => call.args[0].input.TableName === 'secrets')!.args[0].input.Item!;
    expect(secret.name).toBe('apps/app_1/affiliates/aff_1/postback-secret');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(String(secret.value));
    expect(response.body).toContain('Store it now: it is not shown again.');
    expect(dynamo.commandCalls(UpdateCommand)[0].args[0].input).toMatchObject({
      TableName: 'affiliates',
      ExpressionAttributeValues: { ':url': 'https://tracker.example/pb?e={event}' },
    });
  });

  test('a refused URL answers 400 with the reason next to the field and stores nothing', async () => {
    const response = await handlers['affiliate-update-postbacks'](
      portalEvent(
        'POST',
        formHeaders(`urm_aff_session=${sessionId}`),
        form({ csrf: csrfTokenFor(sessionId), action: 'set', postback_url: 'https://169.254.169.254/latest' }),
      ),
      context(),
    );

    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(
      /<p class="field-error" id="field-postback_url-error">The URL must not point at a private or reserved address \(169\.254\.169\.254\)\.<\/p>/,
    );
    expect(dynamo.commandCalls(UpdateCommand)).toEqual([]);
    expect(dynamo.commandCalls(PutCommand)).toEqual([]);
  });

  test('turning postbacks off removes the URL and redirects to the page', async () => {
    const response = await handlers['affiliate-update-postbacks'](
      portalEvent('POST', formHeaders(`urm_aff_session=${sessionId}`), form({ csrf: csrfTokenFor(sessionId), action: 'off' })),
      context(),
    );

    expect(response.statusCode).toBe(303);
    expect(response.headers?.Location).toBe('postbacks?done=off');
    expect(dynamo.commandCalls(UpdateCommand)[0].args[0].input).toMatchObject({ TableName: 'affiliates', UpdateExpression: 'REMOVE postback_url' });
  });

  test('with a CSRF token but no live session it redirects to sign in and changes nothing', async () => {
    const stale = newSecret();
    const response = await handlers['affiliate-update-postbacks'](
      portalEvent('POST', formHeaders(`urm_aff_session=${stale}`), form({ csrf: csrfTokenFor(stale), action: 'rotate' })),
      context(),
    );

    expect(response.statusCode).toBe(303);
    expect(response.headers?.Location).toBe('login?notice=expired');
    expect(dynamo.commandCalls(PutCommand)).toEqual([]);
  });
});
