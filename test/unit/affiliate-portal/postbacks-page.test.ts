/** The portal's Postbacks page: how it renders, the URL refusals in words for a person, and its two routes. */
import { describe, expect, test } from '@jest/globals';
import { h } from 'preact';
import { newSecret } from '../../../functions/domain/secrets-random';
import { portalCsrf } from '../../../functions/domain/sessions';
import { ValidationError } from '../../../functions/domain/errors';
import type { PostbackLogEntry } from '../../../functions/domain/postbacks';
import { postbackFieldErrors } from '../../../functions/affiliate-portal/postbacks';
import { PostbacksPage, type PostbacksView } from '../../../functions/affiliate-portal/pages/postbacks';
import { renderPage } from '../../../functions/affiliate-portal/render';
import { postbackSecretName } from '../../../functions/domain/postbacks';
import { affiliateSession, memoryPortal } from '../../support/affiliate-portal';

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
  renderPage(h(PostbacksPage, { name: 'Ada', csrf: 'tok', postbackUrl: null, events: ['registration', 'ftd'], log: [], logLimit: 50, ...overrides }));

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
    for (const name of ['event', 'sub_id', 'link_id', 'affiliate_id', 'amount', 'currency', 'payout', 'event_id', 'date'])
      expect(html).toContain(`<code>{${name}}</code>`);
    expect(html.indexOf('pb_new')).toBeLessThan(html.indexOf('pb_old'));
    expect(html).toMatch(
      /<th scope="row">FTD<\/th><td class="left wrap"><code>pb_new<\/code><\/td><td class="left outcome-retrying">Failed, will retry<\/td><td>2<\/td><td class="left wrap">503<\/td><td class="left called">—<\/td><td>23 Nov 2026, 10:00:00 UTC<\/td>/,
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

/** The portal with a signed-in affiliate (aff_1 of app_1): its session cookie, and a form of its postbacks page. */
async function signedInPortal() {
  const portal = memoryPortal();
  const { sessionId, cookie } = await affiliateSession(portal);
  const post = (fields: Record<string, string>, session = cookie) => portal.browse('POST', '/affiliates/app_1/postbacks', { cookie: session, form: fields });
  return { ...portal, sessionId, cookie, post };
}

describe('GET /affiliates/{app_id}/postbacks', () => {
  test('without a session it redirects to the sign-in page and reads no log', async () => {
    const { browse, postbacks } = await signedInPortal();
    let reads = 0;
    postbacks.log.recent = async () => {
      reads++;
      return [];
    };

    const response = await browse('GET', '/affiliates/app_1/postbacks');

    expect(response.statusCode).toBe(303);
    expect(response.headers?.Location).toBe('login');
    expect(reads).toBe(0);
  });

  test("with a session it shows the affiliate's URL and the latest 50 deliveries of the affiliate's own log", async () => {
    const { browse, cookie, postbacks } = await signedInPortal();
    postbacks.settings.urls.set('app_1#aff_1', 'https://tracker.example/pb?e={event}');
    await postbacks.log.append('app_1', 'aff_1', entry({ event_id: 'pb_42' }));
    await postbacks.log.append('app_1', 'aff_2', entry({ event_id: 'pb_of_another' }));
    const asked: unknown[][] = [];
    const recent = postbacks.log.recent.bind(postbacks.log);
    postbacks.log.recent = async (...args) => {
      asked.push(args);
      return recent(...args);
    };

    const response = await browse('GET', '/affiliates/app_1/postbacks', { cookie });

    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('https://tracker.example/pb?e={event}');
    expect(response.body).toContain('pb_42');
    expect(response.body).not.toContain('pb_of_another');
    expect(asked).toEqual([['app_1', 'aff_1', 50]]);
  });
});

describe('POST /affiliates/{app_id}/postbacks', () => {
  test('without its CSRF token it is refused 403 and changes nothing', async () => {
    const { post, postbacks, secrets } = await signedInPortal();
    const attempts: Record<string, string>[] = [
      { action: 'set', postback_url: 'https://tracker.example/pb' },
      { action: 'rotate', csrf: 'x'.repeat(43) },
    ];
    for (const fields of attempts) {
      const response = await post(fields);

      expect(response.statusCode).toBe(403);
      expect(response.body).toContain('This form has expired');
    }
    expect(postbacks.settings.urls.get('app_1#aff_1')).toBe(undefined);
    expect(secrets.values.size).toBe(0);
  });

  test('the first URL is stored after its new secret, and the secret is shown in this answer only', async () => {
    const { post, sessionId, postbacks, secrets } = await signedInPortal();

    const response = await post({ csrf: portalCsrf.tokenFor(sessionId), action: 'set', postback_url: ' https://tracker.example/pb?e={event} ' });

    const secret = secrets.values.get(postbackSecretName('app_1', 'aff_1'));
    expect(secret).toBeDefined();
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(String(secret));
    expect(response.body).toContain('Store it now: it is not shown again.');
    expect(postbacks.settings.urls.get('app_1#aff_1')).toBe('https://tracker.example/pb?e={event}');
    // Whether the affiliate has a secret is asked, never read: the portal may not read signing secrets.
    expect([secrets.checks, secrets.reads]).toEqual([[postbackSecretName('app_1', 'aff_1')], []]);
  });

  test('a refused URL answers 400 with the reason next to the field and stores nothing', async () => {
    const { post, sessionId, postbacks, secrets } = await signedInPortal();

    const response = await post({ csrf: portalCsrf.tokenFor(sessionId), action: 'set', postback_url: 'https://169.254.169.254/latest' });

    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(
      /<p class="field-error" id="field-postback_url-error">The URL must not point at a private or reserved address \(169\.254\.169\.254\)\.<\/p>/,
    );
    expect(postbacks.settings.urls.get('app_1#aff_1')).toBe(undefined);
    expect(secrets.values.size).toBe(0);
  });

  test('turning postbacks off removes the URL and redirects to the page', async () => {
    const { post, sessionId, postbacks } = await signedInPortal();
    postbacks.settings.urls.set('app_1#aff_1', 'https://tracker.example/pb');

    const response = await post({ csrf: portalCsrf.tokenFor(sessionId), action: 'off' });

    expect(response.statusCode).toBe(303);
    expect(response.headers?.Location).toBe('postbacks?done=off');
    expect(postbacks.settings.urls.has('app_1#aff_1')).toBe(true);
    expect(postbacks.settings.urls.get('app_1#aff_1')).toBe(undefined);
  });

  test('the event switches store the ticked events only and redirect with a notice; unticked ones are off', async () => {
    const { post, browse, cookie, sessionId, postbacks } = await signedInPortal();
    postbacks.settings.urls.set('app_1#aff_1', 'https://tracker.example/pb');

    const response = await post({ csrf: portalCsrf.tokenFor(sessionId), action: 'events', event_ftd: 'on', event_deposit: 'on', event_withdrawal: 'on' });
    const page = await browse('GET', '/affiliates/app_1/postbacks?done=events', { cookie });

    expect(response.statusCode).toBe(303);
    expect(response.headers?.Location).toBe('postbacks?done=events');
    expect(postbacks.settings.events.get('app_1#aff_1')).toEqual(['ftd', 'deposit']);
    expect(page.body).toContain('Postback events saved.');
    expect(page.body).toMatch(/<input type="checkbox" id="postback-event-deposit" name="event_deposit" value="on" checked/);
    expect(page.body).not.toMatch(/id="postback-event-registration" name="event_registration" value="on" checked/);
  });

  test('an affiliate that never chose sees registration and FTD ticked, CPA and deposit not', async () => {
    const { browse, cookie, postbacks } = await signedInPortal();
    postbacks.settings.urls.set('app_1#aff_1', 'https://tracker.example/pb');

    const page = (await browse('GET', '/affiliates/app_1/postbacks', { cookie })).body as string;

    const ticked = [...page.matchAll(/id="postback-event-(\w+)" name="event_\w+" value="on"( checked)?/g)].map(([, event, checked]) => [event, !!checked]);
    expect(ticked).toEqual([
      ['registration', true],
      ['ftd', true],
      ['cpa', false],
      ['deposit', false],
    ]);
  });

  test('the delivery log shows the URL each attempt called, as stored (masked)', () => {
    const html = render({ log: [entry({ event: 'deposit', url: 'https://tracker.example/pb?token=***&e=deposit' })] });

    expect(html).toContain('<th scope="row">Deposit</th>');
    expect(html).toContain('<td class="left called"><code>https://tracker.example/pb?token=***&amp;e=deposit</code></td>');
  });

  test('with a CSRF token but no live session it redirects to sign in and changes nothing', async () => {
    const { post, secrets } = await signedInPortal();
    const stale = newSecret();

    const response = await post({ csrf: portalCsrf.tokenFor(stale), action: 'rotate' }, `urm_aff_session=${stale}`);

    expect(response.statusCode).toBe(303);
    expect(response.headers?.Location).toBe('login?notice=expired');
    expect(secrets.values.size).toBe(0);
  });
});
