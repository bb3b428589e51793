/**
 * Links the portal mails or shows are built from the application's portal
 * origin, never from the request's `Host` or `X-Forwarded-Proto` (issue 25,
 * item 4): without a portal origin, a reset is refused and says why.
 */
import { describe, expect, test } from '@jest/globals';
import { portalCsrf } from '../../../functions/domain/sessions';
import { cookiesSet, csrfOf, affiliateSession, memoryPortal, portalApps } from '../../support/affiliate-portal';

const home = '/affiliates/app_1/';
/** What an attacker sends so that a link built from the request would point at its host. */
const forged = { Host: 'evil.example', 'X-Forwarded-Proto': 'https' };
const withoutPortalOrigin = [{ ...portalApps[0], portal_origin: undefined }];

/** The portal of `apps`, with an enabled email channel for app_1. */
async function portalWithChannel(apps = portalApps) {
  const portal = memoryPortal(apps);
  await portal.channels.create({
    app_id: 'app_1',
    channel_id: 'ch_1',
    name: 'Main',
    from_email: 'affiliates@casino.example',
    from_name: 'Casino',
    enabled: true,
    created_at: '2026-01-01T00:00:00Z',
  });
  return portal;
}

/** Asks for a reset link for Ada's address, with the forged headers and a token as the sign-in page binds it (the forgot page may have no form). */
async function askForReset(portal: Awaited<ReturnType<typeof portalWithChannel>>) {
  const signInPage = await portal.browse('GET', `${home}login`, { headers: forged });
  const cookie = `urm_aff_pre=${cookiesSet(signInPage).urm_aff_pre}`;
  const form = await portal.browse('GET', `${home}forgot`, { cookie, headers: forged });
  const asked = await portal.browse('POST', `${home}forgot`, { cookie, headers: forged, form: { csrf: csrfOf(signInPage.body), email: 'ada@example.com' } });
  return { form, asked };
}

describe('a password reset', () => {
  test("mails a link on the application's portal origin, whatever host the request names", async () => {
    const portal = await portalWithChannel();

    const { asked } = await askForReset(portal);

    expect(asked.statusCode).toBe(200);
    expect(portal.mailer.sent).toHaveLength(1);
    expect(portal.mailer.sent[0].text).toMatch(/http:\/\/127\.0\.0\.1:3000\/affiliates\/app_1\/reset\?token=[A-Za-z0-9_-]{43}/);
    expect(JSON.stringify(portal.mailer.sent[0])).not.toContain('evil.example');
  });

  test('for an application without a portal origin is refused with a page that says why, and mails nothing', async () => {
    const portal = await portalWithChannel(withoutPortalOrigin);

    const { form, asked } = await askForReset(portal);

    for (const answer of [form, asked]) {
      expect(answer.statusCode).toBe(409);
      expect(answer.body).toContain('no portal address');
      expect(answer.body).toContain('operator');
      expect(answer.body).not.toContain('evil.example');
    }
    expect(form.body).not.toContain('name="email"');
    expect(portal.mailer.sent).toEqual([]);
    expect(portal.resetTokens.tokens.size).toBe(0);
  });
});

describe('the links page', () => {
  /** A signed-in affiliate of the portal of `apps` with one link; the links page as the forged request gets it. */
  async function linksPage(apps = portalApps) {
    const portal = memoryPortal(apps);
    const { sessionId, cookie } = await affiliateSession(portal);
    await portal.browse('POST', `${home}links`, {
      cookie,
      form: { csrf: portalCsrf.tokenFor(sessionId), name: 'Spring', landing_url: 'https://casino.example/welcome' },
    });
    const [link] = [...portal.links.links.values()];
    return { page: await portal.browse('GET', `${home}links`, { cookie, headers: forged }), link };
  }

  test("shows click addresses on the application's portal origin, whatever host the request names", async () => {
    const { page, link } = await linksPage();

    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`http://127.0.0.1:3000/t/${link.link_id}`);
    expect(page.body).not.toContain('evil.example');
  });

  test('without a portal origin shows each click address as its path, and says why', async () => {
    const { page, link } = await linksPage(withoutPortalOrigin);

    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`/t/${link.link_id}`);
    expect(page.body).toContain('no portal address');
    expect(page.body).not.toContain('evil.example');
  });
});
