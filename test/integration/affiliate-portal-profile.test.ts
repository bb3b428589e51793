/** The portal's profile, password change and join page over HTTP on the local stack, as a browser drives them. */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { createApp } from '../../functions/back-office/apps';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { testStack, type TestStack } from '../support/local-stack';
import { PortalVisitor, registeredAffiliate } from '../support/portal';

let stack: TestStack;
beforeAll(async () => {
  stack = await testStack();
});

const visitor = (appId = stack.dev.app_id) => new PortalVisitor(stack.baseUrl, appId);

/** A new affiliate of the demo application, signed in: the visitor and the profile page's CSRF token. */
async function signedIn() {
  const affiliate = await registeredAffiliate(stack, stack.dev.app_id, stack.dev.server_key);
  const person = visitor();
  expect((await person.signIn(affiliate.username, affiliate.password)).status).toBe(303);
  const profile = await person.get('profile');
  return { affiliate, person, profile, csrf: PortalVisitor.csrfOf(profile.text) };
}

describe('the profile over HTTP', () => {
  test('shows the signed-in affiliate its details; a change is saved, and a field that breaks a rule is named', async () => {
    const { person, profile, csrf, affiliate } = await signedIn();

    const refused = await person.post('profile', { csrf, first_name: 'Ada', last_name: '', whatsapp: 'call me' });
    const saved = await person.post('profile', { csrf, first_name: 'Augusta Ada', last_name: 'King', telegram: 'ada_king' });
    const after = await person.get(saved.headers.get('location') ?? '');

    expect(profile.status).toBe(200);
    expect(profile.text).toContain(affiliate.email);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Last name must not be empty.');
    expect(refused.text).toContain('Whatsapp must be + followed by 7 to 20 digits');
    expect(saved.status).toBe(303);
    expect(after.text).toContain('Your profile has been saved.');
    expect(after.text).toContain('value="ada_king"');
    expect(after.text).toContain('Augusta Ada King');
  });

  test('an attacker without a session gets nothing: the page and both forms send them to sign-in or refuse them', async () => {
    const stranger = visitor();

    const page = await stranger.get('profile');
    const profile = await stranger.post('profile', { first_name: 'Mallory', last_name: 'X' });
    const password = await stranger.post('password', { current: 'x', password: 'mallory rules', confirm: 'mallory rules' });

    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('login');
    expect([profile.status, password.status]).toEqual([403, 403]);
    expect(page.text + profile.text + password.text).not.toMatch(/@example\.com/);
  });

  test('a password change needs the current password, then ends the other sessions: the old password and the other browser are out', async () => {
    const { person, csrf, affiliate } = await signedIn();
    const elsewhere = visitor();
    await elsewhere.signIn(affiliate.username, affiliate.password);

    const wrong = await person.post('password', { csrf, current: 'not my password', password: 'a better password', confirm: 'a better password' });
    const changed = await person.post('password', { csrf, current: affiliate.password, password: 'a better password', confirm: 'a better password' });
    const stillHere = await person.get(changed.headers.get('location') ?? '');
    const otherBrowser = await elsewhere.get('./');

    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('That is not your current password.');
    expect(changed.status).toBe(303);
    expect(stillHere.text).toContain('Your password has been changed.');
    expect(otherBrowser.status).toBe(303);
    expect(otherBrowser.headers.get('location')).toBe('login?notice=expired');
    expect((await visitor().signIn(affiliate.username, affiliate.password)).status).toBe(401);
    expect((await visitor().signIn(affiliate.username, 'a better password')).status).toBe(303);
  });
});

describe('the join page over HTTP', () => {
  test('is a 404 while closed (the default); opened, an application makes a pending affiliate who cannot sign in yet', async () => {
    const office = localBackOffice(localClients(stack.endpoints).document);
    const app = await createApp(office, { name: `Join casino ${randomUUID().slice(0, 6)}`, portalOrigin: stack.baseUrl });
    const person = visitor(app.app_id);

    const closed = await person.get('join');
    await office.apps.update(app.app_id, { affiliate_signup: 'open' });
    const open = await person.get('join');
    const token = randomUUID().slice(0, 8);
    const fields = { email: `j-${token}@example.com`, username: `j_${token}`, password: 'joining at last', confirm: 'joining at last' };
    const missingNames = await person.post('join', { csrf: PortalVisitor.csrfOf(open.text), ...fields });
    const applied = await person.post('join', { csrf: PortalVisitor.csrfOf(open.text), ...fields, first_name: 'Jo', last_name: 'Iner' });
    const again = await person.post('join', { csrf: PortalVisitor.csrfOf(open.text), ...fields, username: `k_${token}`, first_name: 'Jo', last_name: 'Iner' });
    const signIn = await visitor(app.app_id).signIn(fields.username, fields.password);

    expect(closed.status).toBe(404);
    expect(open.status).toBe(200);
    expect(missingNames.status).toBe(400);
    expect(missingNames.text).toContain('First name is required.');
    expect(applied.status).toBe(303);
    expect(applied.headers.get('location')).toBe('join?received');
    expect(again.text).toContain('Email is invalid.');
    expect(signIn.status).toBe(403);
    expect(signIn.text).toContain('Account awaiting approval');
  });
});
