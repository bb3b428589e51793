/** The portal's unsubscribe routes on in-memory ports: what each answers and what it writes to the stream. */
import { describe, expect, test } from '@jest/globals';
import type { App } from '../../../functions/domain/apps';
import { newUnsubscribeKey, preferencesFormToken, signUnsubscribeToken, unsubscribeKeyName } from '../../../functions/domain/unsubscribe-token';
import { memoryPortal, portalApps } from '../../support/affiliate-portal';
import { storedProfile } from '../../support/players';

const topics = [
  { name: 'sports', label: 'Sports news' },
  { name: 'casino', label: 'Casino offers' },
];
const apps: App[] = [
  { ...portalApps[0], messaging: { topics } },
  { app_id: 'app_2', name: 'Other Casino', created_at: '2026-01-01T00:00:00Z', portal_origin: 'https://other.example' },
];
const keys = { app_1: newUnsubscribeKey(), app_2: newUnsubscribeKey() };

function portal(attrs: Record<string, unknown> = { urm_consent_email: true, email: 'ann@example.com' }) {
  const p = memoryPortal(apps);
  p.secrets.values.set(unsubscribeKeyName('app_1'), keys.app_1);
  p.secrets.values.set(unsubscribeKeyName('app_2'), keys.app_2);
  p.profiles.add(storedProfile('app_1', 'ann', attrs, { version: 7 }));
  return p;
}
const tokenFor = (topic?: string, appId: 'app_1' | 'app_2' = 'app_1', profileId = 'ann') =>
  signUnsubscribeToken(keys[appId], { appId, profileId, ...(topic ? { topic } : {}) });
const records = (p: ReturnType<typeof portal>) =>
  p.writer.envelopes().map((envelope) => ({ kind: envelope.kind, ...(envelope.record as Record<string, unknown>) }));
const formOf = (token: string, fields: Record<string, string>) => ({ form: preferencesFormToken(keys.app_1, token), ...fields });

describe('the one-click POST', () => {
  test('with any body and no cookie answers 200 and writes consent off and urm_unsubscribed for the player the link names', async () => {
    const p = portal();

    const response = await p.browse('POST', `/unsubscribe/${tokenFor()}`, { headers: { 'Content-Type': 'text/plain' } });

    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('You are unsubscribed');
    expect(records(p)).toEqual([
      expect.objectContaining({ kind: 'profile', app_id: 'app_1', profile_id: 'ann', urm_consent_email: false }),
      expect.objectContaining({ kind: 'event', app_id: 'app_1', profile_id: 'ann', event: 'urm_unsubscribed', method: 'one_click' }),
    ]);
    expect(p.profiles.reads.every((read) => read.consistent)).toBe(true);
  });

  test("of a topic's link adds the topic to urm_unsubscribed_topics and leaves consent alone", async () => {
    const p = portal();

    const response = await p.browse('POST', `/unsubscribe/${tokenFor('sports')}`, { form: { 'List-Unsubscribe': 'One-Click' } });

    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('You will no longer get Sports news email from Casino.');
    expect(records(p)).toEqual([
      expect.objectContaining({ kind: 'profile', urm_unique_append: { urm_unsubscribed_topics: ['sports'] } }),
      expect.objectContaining({ kind: 'event', event: 'urm_unsubscribed', topic: 'sports', method: 'one_click' }),
    ]);
    expect(records(p)[0]).not.toHaveProperty('urm_consent_email');
  });

  test('twice before the stream applies it writes the same insert ids (stored once); once applied, a third writes nothing', async () => {
    const p = portal();
    const path = `/unsubscribe/${tokenFor()}`;

    await p.browse('POST', path);
    await p.browse('POST', path);
    p.profiles.add(storedProfile('app_1', 'ann', { urm_consent_email: false }, { version: 8 }));
    const third = await p.browse('POST', path);

    const [first, second] = p.writer.writes.map((write) => write.map((entry) => JSON.parse(Buffer.from(entry.data).toString('utf8')).record.urm_insert_id));
    expect(second).toEqual(first);
    expect(p.writer.writes).toHaveLength(2);
    expect(third.statusCode).toBe(200);
  });

  test('answers an error (so the mail client tries again) when the stream refuses the records', async () => {
    const p = portal();
    p.writer.failure = new Error('stream unavailable');

    const response = await p.browse('POST', `/unsubscribe/${tokenFor()}`);

    expect(response.statusCode).toBe(500);
  });
});

describe('a bad token', () => {
  const good = tokenFor();
  const altered = `${Buffer.from(JSON.stringify({ v: 1, a: 'app_1', p: 'bob' })).toString('base64url')}.${good.split('.')[1]}`;
  // Signed by app_2's key but naming app_1's player: never reaches app_1.
  const crossApp = signUnsubscribeToken(keys.app_2, { appId: 'app_1', profileId: 'ann' });
  const forged = signUnsubscribeToken(newUnsubscribeKey(), { appId: 'app_1', profileId: 'ann' });
  const unknownApp = signUnsubscribeToken(keys.app_1, { appId: 'app_9', profileId: 'ann' });

  test.each([
    ['forged', forged],
    ['altered', altered],
    ["another application's", crossApp],
    ['cut short', good.slice(0, -3)],
    ['of an unknown application', unknownApp],
    ['too long', `${good}${'A'.repeat(1100)}`],
    ['not a token', 'hello'],
  ])('(%s) gets the same 404 page for GET, one-click and the form, and nothing is read or written', async (_kind, token) => {
    const p = portal();
    const valid = await p.browse('GET', `/unsubscribe/${encodeURIComponent('nope')}`);

    const answers = await Promise.all([
      p.browse('GET', `/unsubscribe/${token}`),
      p.browse('POST', `/unsubscribe/${token}`),
      p.browse('POST', `/unsubscribe/${token}/preferences`, { form: { action: 'all', form: preferencesFormToken(keys.app_1, token) } }),
    ]);

    expect(answers.map((answer) => [answer.statusCode, answer.body])).toEqual(Array(3).fill([404, valid.body]));
    expect(valid.body).toContain('This link is not valid');
    expect(p.writer.writes).toEqual([]);
    expect(p.profiles.reads).toEqual([]);
  });
});

describe('the preference page', () => {
  test("is in the application's name, lists its topics with the player's state, and changes nothing", async () => {
    const p = portal({ urm_consent_email: true, urm_unsubscribed_topics: ['casino'] });

    const response = await p.browse('GET', `/unsubscribe/${tokenFor('sports')}`);

    expect(response.statusCode).toBe(200);
    expect(response.headers?.['Content-Security-Policy']).toContain("default-src 'none'");
    expect(response.body).toContain('<title>Email preferences · Casino</title>');
    expect(response.body).toMatch(/name="topic.sports" value="on" checked/);
    expect(response.body).not.toMatch(/name="topic.casino" value="on" checked/);
    expect(response.body).toContain('Unsubscribe from all marketing email');
    expect(response.body).not.toContain('<script');
    expect(p.writer.writes).toEqual([]);
  });

  test('says so, with no forms, when the player has no consent', async () => {
    const p = portal({ urm_consent_email: false });

    const response = await p.browse('GET', `/unsubscribe/${tokenFor()}`);

    expect(response.body).toContain('You are unsubscribed from all marketing email from Casino.');
    expect(response.body).not.toContain('<form');
  });

  test('form leaving one topic and rejoining another writes both and confirms them', async () => {
    const p = portal({ urm_consent_email: true, urm_unsubscribed_topics: ['casino'] });
    const token = tokenFor();

    const response = await p.browse('POST', `/unsubscribe/${token}/preferences`, { form: formOf(token, { action: 'topics', 'topic.casino': 'on' }) });

    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Your preferences are saved.');
    expect(response.body).toContain('You will no longer get: Sports news.');
    expect(response.body).toContain('You will get again: Casino offers.');
    expect(response.body).toMatch(/name="topic.casino" value="on" checked/);
    expect(records(p)).toEqual([
      expect.objectContaining({ kind: 'profile', urm_unique_append: { urm_unsubscribed_topics: ['sports'] } }),
      expect.objectContaining({ kind: 'event', event: 'urm_unsubscribed', topic: 'sports', method: 'page' }),
      expect.objectContaining({ kind: 'profile', urm_remove: { urm_unsubscribed_topics: ['casino'] } }),
    ]);
  });

  test('form "Unsubscribe from all" turns consent off and confirms it', async () => {
    const p = portal();
    const token = tokenFor();

    const response = await p.browse('POST', `/unsubscribe/${token}/preferences`, { form: formOf(token, { action: 'all' }) });

    expect(response.body).toContain('Done. You are unsubscribed from all marketing email from Casino.');
    expect(records(p)).toEqual([expect.objectContaining({ urm_consent_email: false }), expect.objectContaining({ event: 'urm_unsubscribed', method: 'page' })]);
    expect(records(p)[1]).not.toHaveProperty('topic');
  });

  test.each([
    ['without its form token', () => ({ form: { action: 'all' } })],
    ["with another link's form token", () => ({ form: formOf(tokenFor('sports'), { action: 'all' }) })],
    ['posted from another site', (token: string) => ({ form: formOf(token, { action: 'all' }), headers: { 'Sec-Fetch-Site': 'cross-site' } })],
  ])('form %s is refused with 403 and changes nothing', async (_kind, options) => {
    const p = portal();
    const token = tokenFor();

    const response = await p.browse('POST', `/unsubscribe/${token}/preferences`, options(token));

    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('This form has expired');
    expect(p.writer.writes).toEqual([]);
  });
});
