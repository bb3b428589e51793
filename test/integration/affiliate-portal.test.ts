/** The affiliate portal over HTTP on the local stack, as a browser drives it. */
import { commandLineActor } from '../../functions/domain/audit';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { portalLimits } from '../../functions/domain/affiliate-portal';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { testStack, type TestStack } from '../support/local-stack';
import { sentMail } from '../support/mail';
import { PortalVisitor, registeredAffiliate } from '../support/portal';

let stack: TestStack;
beforeAll(async () => {
  stack = await testStack();
});

const demoAffiliate = () => registeredAffiliate(stack, stack.dev.app_id, stack.dev.server_key);
const visitor = (appId = stack.dev.app_id) => new PortalVisitor(stack.baseUrl, appId);

describe('the affiliate portal over HTTP', () => {
  test('login_url answers the sign-in page; the right password leads to the dashboard with an HttpOnly session cookie scoped to the portal', async () => {
    const affiliate = await demoAffiliate();
    const person = visitor();
    expect(affiliate.login_url).toBe(`${stack.baseUrl}/affiliates/${stack.dev.app_id}/login`);

    const signedIn = await person.signIn(affiliate.username, affiliate.password);
    const dashboard = await person.get('./');

    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.getSetCookie().find((c) => c.startsWith('urm_aff_session='))).toMatch(
      new RegExp(`Path=/affiliates/${stack.dev.app_id}/; Max-Age=43200; HttpOnly; SameSite=Lax$`),
    );
    expect(dashboard.status).toBe(200);
    expect(dashboard.text).toContain('Ada Lovelace');
  });

  test('a sign-in without its CSRF token, or with another one, is refused 403 and starts no session', async () => {
    const affiliate = await demoAffiliate();
    const person = visitor();
    await person.get('login');

    const missing = await person.post('login', { login: affiliate.username, password: affiliate.password });
    const wrong = await person.post('login', { csrf: 'x'.repeat(43), login: affiliate.username, password: affiliate.password });

    expect(missing.status).toBe(403);
    expect(wrong.status).toBe(403);
    expect(missing.text).toContain('This form has expired');
    expect(person.cookies.has('urm_aff_session')).toBe(false);
  });

  test('wrong password five times locks the account: the right password is then refused too, with a message that names neither field', async () => {
    const affiliate = await demoAffiliate();
    const statuses: number[] = [];
    for (let i = 0; i < portalLimits.failuresPerAccount; i++) {
      // A fresh client each time: the account's own count locks it, not the client's.
      statuses.push((await visitor().signIn(affiliate.username, `wrong ${i}`)).status);
    }

    const withRightPassword = await visitor().signIn(affiliate.username, affiliate.password);

    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    expect(withRightPassword.status).toBe(429);
    expect(withRightPassword.text).toContain('too many unsuccessful sign-in attempts');
    expect(withRightPassword.text).not.toMatch(/password is wrong|unknown user|no such/i);
  });

  test("another application's affiliate cannot sign in at this portal, nor use its session here", async () => {
    const office = localBackOffice(localClients(stack.endpoints).document);
    const other = await createApp(office, { name: `other ${randomUUID()}`, portalOrigin: stack.baseUrl });
    // Approved at once, so the only thing between the stranger and this portal is being another application's.
    await office.apps.update(other.app_id, { affiliate_approval: 'approve' });
    const otherKey = (await issueKey(office, other.app_id, commandLineActor, 'server')).key;
    const stranger = await registeredAffiliate(stack, other.app_id, otherKey, { first_name: 'Eve', last_name: 'Other' });

    const here = await visitor().signIn(stranger.username, stranger.password);
    const atHome = visitor(other.app_id);
    expect((await atHome.signIn(stranger.username, stranger.password)).status).toBe(303);
    const session = atHome.cookies.get('urm_aff_session')!.value;
    const borrowed = await fetch(`${stack.baseUrl}/affiliates/${stack.dev.app_id}/`, { headers: { cookie: `urm_aff_session=${session}` }, redirect: 'manual' });

    expect(here.status).toBe(401);
    expect(borrowed.status).toBe(303);
    expect(borrowed.headers.get('location')).toBe('login?notice=expired');
  });

  test('a password reset mails a link through the application channel; the link sets a new password once and ends the old sessions', async () => {
    const affiliate = await demoAffiliate();
    const signedIn = visitor();
    await signedIn.signIn(affiliate.username, affiliate.password);
    const person = visitor();
    const form = await person.get('forgot');

    const asked = await person.post('forgot', { csrf: PortalVisitor.csrfOf(form.text), email: affiliate.email.toUpperCase() });
    const mail = (await sentMail(stack)).find((candidate) => candidate.destination.to.some((to) => to.includes(affiliate.email)));
    const link = /https?:\/\/[^\s]+reset\?token=[A-Za-z0-9_-]{43}/.exec(mail?.body.text ?? '')?.[0];
    const resetPage = await person.get(link!);
    const reset = await person.post('reset', {
      csrf: PortalVisitor.csrfOf(resetPage.text),
      token: new URL(link!).searchParams.get('token')!,
      password: 'a brand new secret',
      confirm: 'a brand new secret',
    });
    const again = await person.get(link!);

    expect(asked.status).toBe(200);
    expect(asked.text).toContain('If an affiliate account uses that address');
    expect(link).toContain(`/affiliates/${stack.dev.app_id}/reset?token=`);
    expect(resetPage.status).toBe(200);
    expect(reset.status).toBe(303);
    expect(reset.headers.get('location')).toBe('login?notice=reset');
    expect(again.status).toBe(410);
    expect((await signedIn.get('./')).status).toBe(303);
    expect((await visitor().signIn(affiliate.username, affiliate.password)).status).toBe(401);
    expect((await visitor().signIn(affiliate.username, 'a brand new secret')).status).toBe(303);
  });

  test('an unknown email gets the same page and no mail', async () => {
    const person = visitor();
    const form = await person.get('forgot');
    const email = `nobody-${randomUUID()}@example.com`;

    const asked = await person.post('forgot', { csrf: PortalVisitor.csrfOf(form.text), email });

    expect(asked.status).toBe(200);
    expect(asked.text).toContain('If an affiliate account uses that address');
    expect((await sentMail(stack)).some((mail) => mail.destination.to.some((to) => to.includes(email)))).toBe(false);
  });

  test('signing out ends the session server-side: the old cookie no longer opens the dashboard', async () => {
    const affiliate = await demoAffiliate();
    const person = visitor();
    await person.signIn(affiliate.username, affiliate.password);
    const session = person.cookies.get('urm_aff_session')!.value;
    const dashboard = await person.get('./');

    const out = await person.post('sign_out', { csrf: PortalVisitor.csrfOf(dashboard.text) });
    const replayed = await fetch(`${stack.baseUrl}/affiliates/${stack.dev.app_id}/`, { headers: { cookie: `urm_aff_session=${session}` }, redirect: 'manual' });

    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('login?notice=signed-out');
    expect(replayed.status).toBe(303);
  });
});
