/**
 * The portal's profile, password change, join page and link builder, through
 * its router on in-memory ports: the rules of docs/api.md ("The affiliate
 * portal"), each with the refusal that names its field.
 */
import { describe, expect, test } from '@jest/globals';
import { joinsPerWindow } from '../../../functions/affiliate-portal/join';
import { portalLimits } from '../../../functions/domain/affiliate-portal';
import { hashSecret } from '../../../functions/domain/secrets-random';
import { cookiesSet, csrfOf, affiliateSession, memoryPortal, portalApps } from '../../support/affiliate-portal';

const home = '/affiliates/app_1/';

async function newSession(portal: ReturnType<typeof memoryPortal>) {
  const { sessionId } = await affiliateSession(portal);
  return sessionId;
}

/** The portal with aff_1 signed in; `post` sends one of its forms with the session's CSRF token. */
async function signedIn(apps = portalApps) {
  const portal = memoryPortal(apps);
  const sessionId = await newSession(portal);
  const cookie = `urm_aff_session=${sessionId}`;
  const csrf = csrfOf((await portal.browse('GET', `${home}profile`, { cookie })).body);
  const post = (path: string, fields: Record<string, string>) => portal.browse('POST', `${home}${path}`, { cookie, form: { csrf, ...fields } });
  const affiliate = () => portal.accounts.byId.get('app_1#aff_1')!;
  return { ...portal, sessionId, cookie, post, affiliate };
}

const names = { first_name: 'Ada', last_name: 'Lovelace' };

describe('the profile', () => {
  test('saves names and contacts trimmed, removes a contact left empty, and audits which fields changed, never their values', async () => {
    const { post, affiliate, audit } = await signedIn();
    affiliate().skype = 'ada.skype';

    const saved = await post('profile', { first_name: ' Augusta ', last_name: 'King', telegram: 'ada_lovelace', skype: '', email: 'evil@example.com' });

    expect(saved.statusCode).toBe(303);
    expect(saved.headers?.Location).toBe('profile?saved=saved');
    expect(affiliate()).toMatchObject({ first_name: 'Augusta', last_name: 'King', telegram: 'ada_lovelace', email: 'ada@example.com' });
    expect(affiliate().skype).toBeUndefined();
    expect(audit.entries.map((entry) => [entry.action, entry.target, entry.actor.user_id, entry.details])).toEqual([
      ['affiliate.profile_changed', 'affiliate:aff_1', 'affiliate:aff_1', { fields: ['first_name', 'last_name', 'telegram', 'skype'] }],
    ]);
  });

  test("a field that breaks register_affiliate's rule is refused 400 with a message naming it, and nothing is stored", async () => {
    const { post, affiliate, audit } = await signedIn();

    const refused = await post('profile', { first_name: '', last_name: 'King', telegram: 'ab', phone_number: '12' });

    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('First name must not be empty.');
    expect(refused.body).toContain('Telegram must be 5 to 32 characters: letters, digits and underscores.');
    expect(refused.body).toContain('Phone number must be + followed by 7 to 20 digits');
    expect(affiliate()).toMatchObject(names);
    expect(audit.entries).toEqual([]);
  });

  test('without a session, or without the CSRF token, a post changes nothing', async () => {
    const { browse, cookie, affiliate } = await signedIn();

    const anonymous = await browse('POST', `${home}profile`, { form: { ...names, first_name: 'Mallory' } });
    const forged = await browse('POST', `${home}profile`, { cookie, form: { ...names, first_name: 'Mallory' } });

    expect(anonymous.statusCode).toBe(403);
    expect(forged.statusCode).toBe(403);
    expect(affiliate().first_name).toBe('Ada');
  });
});

describe('the password change', () => {
  test('needs the current password; then stores the new one, ends every session (this one too) and starts a new one', async () => {
    const portal = await signedIn();
    const other = await newSession(portal);

    const wrong = await portal.post('password', { current: 'not it', password: 'a new password', confirm: 'a new password' });
    const changed = await portal.post('password', { current: 'correct horse', password: 'a new password', confirm: 'a new password' });

    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('That is not your current password.');
    expect(changed.statusCode).toBe(303);
    expect(portal.affiliate().password_hash).toBe('hash:a new password');
    const fresh = cookiesSet(changed).urm_aff_session;
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect([portal.sessionId, other].map((id) => portal.sessions.sessions.has(hashSecret(id)))).toEqual([false, false]);
    expect(portal.sessions.sessions.has(hashSecret(fresh))).toBe(true);
    expect(portal.audit.entries.map((entry) => [entry.action, entry.details])).toEqual([['affiliate.password_changed', { sessions_ended: 2 }]]);
  });

  test("the new password follows register_affiliate's length rule and must be typed twice alike", async () => {
    const { post, affiliate } = await signedIn();

    const short = await post('password', { current: 'correct horse', password: 'short', confirm: 'short' });
    const mismatch = await post('password', { current: 'correct horse', password: 'a new password', confirm: 'another one' });

    expect([short.statusCode, mismatch.statusCode]).toEqual([400, 400]);
    expect(short.body).toContain('Use at least 8 characters.');
    expect(mismatch.body).toContain('The two passwords are not the same.');
    expect(affiliate().password_hash).toBe('hash:correct horse');
  });

  test("wrong current passwords fill the account's sign-in lockout: then even the right one is refused 429", async () => {
    const { post, affiliate } = await signedIn();
    const statuses: number[] = [];
    for (let i = 0; i < portalLimits.failuresPerAccount; i++)
      statuses.push((await post('password', { current: `guess ${i}`, password: 'x'.repeat(9), confirm: 'x'.repeat(9) })).statusCode);

    const right = await post('password', { current: 'correct horse', password: 'a new password', confirm: 'a new password' });

    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    expect(right.statusCode).toBe(429);
    expect(right.headers?.['Retry-After']).toMatch(/^\d+$/);
    expect(affiliate().password_hash).toBe('hash:correct horse');
  });
});

const openApps = portalApps.map((app) => ({ ...app, affiliate_signup: 'open' as const }));
const application = {
  email: 'grace@example.com',
  username: 'grace',
  password: 'compiler 1952',
  confirm: 'compiler 1952',
  first_name: 'Grace',
  last_name: 'Hopper',
};

/** A visitor of the join page: its pre-session cookie and the form's token. */
async function atJoin(portal: ReturnType<typeof memoryPortal>) {
  const page = await portal.browse('GET', `${home}join`);
  const cookie = `urm_aff_pre=${cookiesSet(page).urm_aff_pre}`;
  const csrf = csrfOf(page.body);
  return (fields: Record<string, string>) => portal.browse('POST', `${home}join`, { cookie, form: { csrf, ...fields } });
}

const pendingOf = (portal: ReturnType<typeof memoryPortal>) =>
  [...portal.accounts.byId.values()].filter((affiliate) => affiliate.username !== 'ada').map((a) => [a.username, a.status]);

describe('the join page', () => {
  test('is the 404 page while the application has not opened it, and the sign-in page does not link to it', async () => {
    const portal = memoryPortal();

    const page = await portal.browse('GET', `${home}join`);
    const post = await portal.browse('POST', `${home}join`, { form: application });
    const login = await portal.browse('GET', `${home}login`);

    expect([page.statusCode, post.statusCode === 404 || post.statusCode === 403]).toEqual([404, true]);
    expect(login.body).not.toContain('Join the programme');
    expect(pendingOf(portal)).toEqual([]);
  });

  test('when open, an application registers a pending affiliate (whatever the approval setting) and leads to what happens next', async () => {
    const portal = memoryPortal(openApps.map((app) => ({ ...app, affiliate_approval: 'approve' as const })));
    const apply = await atJoin(portal);

    const applied = await apply(application);
    const received = await portal.browse('GET', `${home}join?received`);

    expect(applied.statusCode).toBe(303);
    expect(pendingOf(portal)).toEqual([['grace', 'pending']]);
    expect(received.body).toContain('Application received');
    expect((await portal.browse('GET', `${home}login`)).body).toContain('Join the programme');
  });

  test("refusals are register_affiliate's messages by field: a used email, a short password; the password is never sent back", async () => {
    const portal = memoryPortal(openApps);
    const apply = await atJoin(portal);

    await apply(application);
    const used = await apply({ ...application, email: ' GRACE@example.com', username: 'grace2' });
    const short = await apply({ ...application, password: 'short', confirm: 'short', telegram: 'ab' });

    expect(used.statusCode).toBe(400);
    expect(used.body).toContain('Email is invalid.');
    expect(short.body).toContain('Password must be at least 8 characters.');
    expect(short.body).toContain('Telegram must be 5 to 32 characters');
    expect(short.body).not.toContain('value="short"');
    expect(pendingOf(portal)).toEqual([['grace', 'pending']]);
  });

  test(`one address gets ${joinsPerWindow} applications a window; the next is refused 429`, async () => {
    const portal = memoryPortal(openApps);
    const apply = await atJoin(portal);
    for (let i = 0; i < joinsPerWindow; i++) await apply({ ...application, email: `p${i}@example.com`, username: `p${i}` });

    const flood = await apply({ ...application, email: 'more@example.com', username: 'more' });

    expect(flood.statusCode).toBe(429);
    expect(pendingOf(portal)).toHaveLength(joinsPerWindow);
  });
});

describe('the link builder', () => {
  test("adds a sub-id under the click's rule to one of the affiliate's own links; anything else is refused and names the field", async () => {
    const { browse, cookie, links } = await signedIn();
    await links.create({
      link_id: 'AbCdEfGhIjKl',
      app_id: 'app_1',
      affiliate_id: 'aff_1',
      name: 'Spring',
      landing_url: 'https://casino.example/',
      created_at: '2026-01-02T00:00:00Z',
    });
    await links.create({
      link_id: 'OtherAffLink',
      app_id: 'app_1',
      affiliate_id: 'aff_2',
      name: 'Theirs',
      landing_url: 'https://casino.example/',
      created_at: '2026-01-02T00:00:00Z',
    });

    const built = await browse('GET', `${home}links?link=AbCdEfGhIjKl&sub_id=ig.story_7-b`, { cookie });
    const bad = await browse('GET', `${home}links?link=AbCdEfGhIjKl&sub_id=${encodeURIComponent('a b<')}`, { cookie });
    const theirs = await browse('GET', `${home}links?link=OtherAffLink&sub_id=x`, { cookie });

    expect(built.statusCode).toBe(200);
    expect(built.body).toContain('<code class="address" id="built-address">http://127.0.0.1:3000/t/AbCdEfGhIjKl?urm_aff=ig.story_7-b</code>');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Use 1 to 100 letters, digits, dots, underscores or dashes.');
    expect(theirs.statusCode).toBe(400);
    expect(theirs.body).toContain('Choose one of your links.');
    expect(theirs.body).not.toContain('OtherAffLink');
  });
});
