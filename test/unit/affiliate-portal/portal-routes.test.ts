/**
 * The affiliate portal's one function, through its router, on in-memory
 * ports: what each route's checks answer (an unknown application or address,
 * no session, a wrong CSRF token) and what its work does.
 */
import { describe, expect, test } from '@jest/globals';
import { routes } from '../../../functions/affiliate-portal/routes';
import { portalLimits } from '../../../functions/domain/affiliate-portal';
import { newSecret } from '../../../functions/domain/secrets-random';
import { portalCsrf, sessionLimits } from '../../../functions/domain/sessions';
import { cookiesSet, csrfOf, affiliateSession, memoryPortal } from '../../support/affiliate-portal';
import { dayRow } from '../../support/affiliates';

const home = '/affiliates/app_1/';

/** The portal with a live session of aff_1; its cookie. */
async function signedIn() {
  const portal = memoryPortal();
  const { sessionId } = await affiliateSession(portal);
  return { ...portal, sessionId, cookie: `urm_aff_session=${sessionId}` };
}

/** A person who opened the sign-in page: the pre-session cookie and the form's token. */
async function atSignIn(portal: ReturnType<typeof memoryPortal>) {
  const page = await portal.browse('GET', `${home}login`);
  return { cookie: `urm_aff_pre=${cookiesSet(page).urm_aff_pre}`, csrf: csrfOf(page.body) };
}

describe('the routes', () => {
  test('are the portal pages of docs/api.md, each form post bound to a CSRF token within the form bound', () => {
    // The unsubscribe link's posts carry no session's CSRF token: one-click needs none, the preference form its own (unsubscribe.test.ts).
    const posts = routes.filter((route) => route.method === 'POST' && route.access !== 'unsubscribe-token');

    expect(routes.map((route) => `${route.method} ${route.path.replace('/affiliates/{app_id}/', '')}`).sort()).toEqual(
      [
        'GET ',
        'GET forgot',
        'GET links',
        'GET login',
        'GET postbacks',
        'GET payments',
        'POST payments',
        'GET statement',
        'GET report.csv',
        'GET reset',
        'POST forgot',
        'POST links',
        'POST login',
        'POST postbacks',
        'POST reset',
        'POST sign_out',
        'GET profile',
        'POST profile',
        'POST password',
        'GET join',
        'POST join',
        'GET /unsubscribe/{token}',
        'POST /unsubscribe/{token}',
        'POST /unsubscribe/{token}/preferences',
      ].sort(),
    );
    expect(posts.filter((route) => !('csrf' in route) || route.maxBodyBytes !== 8 * 1024)).toEqual([]);
    expect(routes.filter((route) => route.method === 'POST' && route.maxBodyBytes !== 8 * 1024)).toEqual([]);
  });
});

describe('what the router answers by itself', () => {
  test('an address under the portal that no route declares is the not-found page, in the portal look', async () => {
    const { browse } = memoryPortal();

    const response = await browse('GET', `${home}nope`);

    expect(response.statusCode).toBe(404);
    expect(response.headers?.['Content-Type']).toBe('text/html; charset=utf-8');
    expect(response.headers?.['Content-Security-Policy']).toContain("default-src 'none'");
    expect(response.body).toContain('There is no such page');
    expect(response.body).toContain('Affiliate portal');
  });

  test('a method a route does not take is the not-found page too', async () => {
    const { browse } = memoryPortal();

    const answers = await Promise.all([
      browse('DELETE', `${home}login`),
      browse('GET', `${home}sign_out`),
      browse('POST', home),
      browse('PUT', `${home}links`),
    ]);

    expect(answers.map((response) => response.statusCode)).toEqual([404, 404, 404, 404]);
    expect(answers.every((response) => response.body.includes('There is no such page'))).toBe(true);
  });

  test('an application id that is not percent-encoded text is the not-found page, not an error', async () => {
    const { browse } = memoryPortal();

    const response = await browse('GET', '/affiliates/%E0%A4%A/login');

    expect(response.statusCode).toBe(404);
  });

  test('an unknown application is the page that says there is no portal here, on every route', async () => {
    const { browse } = memoryPortal();

    const answers = await Promise.all([
      browse('GET', '/affiliates/app_unknown/login'),
      browse('GET', '/affiliates/app_unknown/'),
      browse('POST', '/affiliates/app_unknown/sign_out', { form: { csrf: 'x' } }),
    ]);

    expect(answers.map((response) => response.statusCode)).toEqual([404, 404, 404]);
    expect(answers[0].body).toContain('There is no affiliate portal here');
  });

  test('a failure inside a route is the error page, which tells nothing of it', async () => {
    const { browse, apps } = memoryPortal();
    apps.get = async () => {
      throw new Error('connect ECONNREFUSED 10.0.0.7:8000 table urm-apps');
    };

    const response = await browse('GET', `${home}login`);

    expect(response.statusCode).toBe(500);
    expect(response.body).toContain('Something went wrong');
    expect(response.body).not.toMatch(/ECONNREFUSED|urm-apps/);
  });
});

describe('signing in and out', () => {
  test('the sign-in page binds its form to a new pre-session cookie, scoped to the portal', async () => {
    const { browse } = memoryPortal();

    const response = await browse('GET', `${home}login`);

    expect(response.statusCode).toBe(200);
    expect(response.multiValueHeaders?.['Set-Cookie']).toEqual([
      expect.stringMatching(/^urm_aff_pre=[A-Za-z0-9_-]{43}; Path=\/affiliates\/app_1\/; Max-Age=7200; HttpOnly; SameSite=Lax$/),
    ]);
    expect(csrfOf(response.body)).toBe(portalCsrf.tokenFor(cookiesSet(response).urm_aff_pre));
  });

  test("the right password with the form's token starts a session, replaces the pre-session cookie and leads to the dashboard", async () => {
    const portal = memoryPortal();
    const person = await atSignIn(portal);

    const response = await portal.browse('POST', `${home}login`, {
      cookie: person.cookie,
      form: { csrf: person.csrf, login: 'ada', password: 'correct horse' },
    });
    const dashboard = await portal.browse('GET', home, { cookie: `urm_aff_session=${cookiesSet(response).urm_aff_session}` });

    expect(response.statusCode).toBe(303);
    expect(response.headers?.Location).toBe('./');
    expect(cookiesSet(response)).toEqual({ urm_aff_session: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), urm_aff_pre: '' });
    expect(portal.sessions.sessions.size).toBe(1);
    expect(dashboard.statusCode).toBe(200);
    expect(dashboard.body).toContain('Ada Lovelace');
  });

  test('a sign-in without the pre-session cookie its token is bound to is the 403 page, with a cookie to try again with', async () => {
    const portal = memoryPortal();
    const person = await atSignIn(portal);

    const response = await portal.browse('POST', `${home}login`, { form: { csrf: person.csrf, login: 'ada', password: 'correct horse' } });

    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('This form has expired');
    expect(Object.keys(cookiesSet(response))).toEqual(['urm_aff_pre']);
    expect(portal.sessions.sessions.size).toBe(0);
  });

  test('a wrong password is the sign-in page again with the login typed and the same token', async () => {
    const portal = memoryPortal();
    const person = await atSignIn(portal);

    const response = await portal.browse('POST', `${home}login`, { cookie: person.cookie, form: { csrf: person.csrf, login: 'ada', password: 'wrong' } });

    expect(response.statusCode).toBe(401);
    expect(response.body).toContain('value="ada"');
    expect(csrfOf(response.body)).toBe(person.csrf);
  });

  test('a locked account is a 429 that says for how long, in minutes and in Retry-After', async () => {
    const portal = memoryPortal();
    const person = await atSignIn(portal);
    const attempt = (password: string) => portal.browse('POST', `${home}login`, { cookie: person.cookie, form: { csrf: person.csrf, login: 'ada', password } });
    for (let i = 0; i < portalLimits.failuresPerAccount - 1; i++) await attempt('wrong');

    const response = await attempt('wrong');

    expect(response.statusCode).toBe(429);
    expect(response.headers?.['Retry-After']).toBe(String(portalLimits.attemptWindowMs / 1000));
    expect(response.body).toContain('paused for about 15');
  });

  test('signing out ends the session server-side, clears its cookie and says so on the sign-in page', async () => {
    const { browse, cookie, sessionId, sessions } = await signedIn();

    const response = await browse('POST', `${home}sign_out`, { cookie, form: { csrf: portalCsrf.tokenFor(sessionId) } });

    expect(response.statusCode).toBe(303);
    expect(response.headers?.Location).toBe('login?notice=signed-out');
    expect(response.multiValueHeaders?.['Set-Cookie']).toEqual(['urm_aff_session=; Path=/affiliates/app_1/; Max-Age=0; HttpOnly; SameSite=Lax']);
    expect(sessions.sessions.size).toBe(0);
  });

  test('signing out without a session cookie goes to sign-in; with the wrong token it is the 403 page and the session stays', async () => {
    const { browse, cookie, sessions } = await signedIn();

    const without = await browse('POST', `${home}sign_out`, { form: { csrf: 'x'.repeat(43) } });
    const forged = await browse('POST', `${home}sign_out`, { cookie, form: { csrf: 'x'.repeat(43) } });

    expect([without.statusCode, without.headers?.Location]).toEqual([303, 'login']);
    expect(forged.statusCode).toBe(403);
    expect(sessions.sessions.size).toBe(1);
  });
});

describe("the signed-in affiliate's pages", () => {
  test('without a session cookie go to sign-in; with one that has ended, to sign-in saying so', async () => {
    const { browse, clock, cookie } = await signedIn();
    clock.advance(sessionLimits.idleMs);

    const answers = await Promise.all(['', 'links', 'postbacks', 'report.csv'].map((page) => browse('GET', `${home}${page}`)));
    const ended = await browse('GET', home, { cookie });

    expect(answers.map((response) => [response.statusCode, response.headers?.Location])).toEqual(Array(4).fill([303, 'login']));
    expect([ended.statusCode, ended.headers?.Location]).toEqual([303, 'login?notice=expired']);
  });

  test('the dashboard answers at the portal address with and without its final slash, as before', async () => {
    const { browse, cookie } = await signedIn();

    const answers = await Promise.all([browse('GET', '/affiliates/app_1/', { cookie }), browse('GET', '/affiliates/app_1', { cookie })]);

    expect(answers.map((response) => response.statusCode)).toEqual([200, 200]);
    expect(answers[1].body).toContain('<h1>Dashboard</h1>');
  });

  test("the report's CSV is the period's figures of the session's own affiliate, as a download", async () => {
    const { browse, cookie, funnel } = await signedIn();
    funnel.dayRows.push(dayRow('aff_1', '2026-11-02', { clicks: 7 }), dayRow('aff_2', '2026-11-02', { clicks: 99 }));

    const response = await browse('GET', `${home}report.csv?from=2026-11-01&to=2026-11-05`, { cookie });

    expect(response.statusCode).toBe(200);
    expect(response.headers?.['Content-Type']).toBe('text/csv; charset=utf-8');
    expect(response.headers?.['Content-Disposition']).toMatch(/^attachment; filename=".*2026-11-01.*2026-11-05.*\.csv"$/);
    expect(response.body).toContain('total,,,,7,');
  });

  test("a link with a landing page off the application's sites is refused next to its field; a good one is created", async () => {
    const { browse, cookie, sessionId, links } = await signedIn();
    const create = (landing: string) =>
      browse('POST', `${home}links`, { cookie, form: { csrf: portalCsrf.tokenFor(sessionId), name: 'Spring', landing_url: landing } });

    const refused = await create('https://elsewhere.example/');
    const created = await create('https://casino.example/welcome');
    const link = [...links.links.values()][0];
    const listed = await browse('GET', `${home}${created.headers?.Location}`, { cookie });

    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain("The landing page must be on one of the application's site origins");
    expect([created.statusCode, created.headers?.Location]).toEqual([303, `links?created=${link.link_id}`]);
    expect(listed.body).toContain(`/t/${link.link_id}`);
  });
});

describe('resetting a password', () => {
  test('a reset link mailed through the first enabled channel sets a new password once and ends the sessions', async () => {
    const portal = await signedIn();
    await portal.channels.create({
      app_id: 'app_1',
      channel_id: 'ch_1',
      name: 'Main',
      from_email: 'affiliates@casino.example',
      from_name: 'Casino',
      enabled: true,
      created_at: '2026-01-01T00:00:00Z',
    });
    const form = await portal.browse('GET', `${home}forgot`);
    const pre = `urm_aff_pre=${cookiesSet(form).urm_aff_pre}`;

    const asked = await portal.browse('POST', `${home}forgot`, { cookie: pre, form: { csrf: csrfOf(form.body), email: 'ADA@example.com' } });
    const link = /http:\/\/127\.0\.0\.1:3000\/affiliates\/app_1\/reset\?token=([A-Za-z0-9_-]{43})/.exec(portal.mailer.sent[0]?.text ?? '');
    const token = link?.[1] ?? '';
    const resetPage = await portal.browse('GET', `${home}reset?token=${token}`, { cookie: pre });
    const reset = await portal.browse('POST', `${home}reset`, {
      cookie: pre,
      form: { csrf: csrfOf(resetPage.body), token, password: 'a brand new secret', confirm: 'a brand new secret' },
    });
    const again = await portal.browse('GET', `${home}reset?token=${token}`, { cookie: pre });

    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('If an affiliate account uses that address');
    expect(portal.mailer.sent[0].from).toContain('affiliates@casino.example');
    expect(resetPage.statusCode).toBe(200);
    expect([reset.statusCode, reset.headers?.Location]).toEqual([303, 'login?notice=reset']);
    expect(portal.accounts.byId.get('app_1#aff_1')?.password_hash).toBe('hash:a brand new secret');
    expect(portal.sessions.sessions.size).toBe(0);
    expect(again.statusCode).toBe(410);
  });

  test('an unknown reset token is a 404 page that sets no cookie', async () => {
    const { browse } = memoryPortal();

    const response = await browse('GET', `${home}reset?token=${newSecret()}`);

    expect(response.statusCode).toBe(404);
    expect(response.multiValueHeaders).toBe(undefined);
  });
});
