import { describe, expect, test } from '@jest/globals';
import { sendEmailInput } from '../../../functions/adapters/ses-mailer';
import type { OutgoingMail } from '../../../functions/domain/email';
import { Conflict } from '../../../functions/domain/errors';
import { unsubscribeKeyName, verifyUnsubscribeToken } from '../../../functions/domain/unsubscribe-token';
import { preferenceRecords, unsubscribeKey, unsubscribeLinks, withUnsubscribe } from '../../../functions/messaging/unsubscribe';
import { MemorySecretStore } from '../../support/secrets';

const app = { app_id: 'app_1', portal_origin: 'https://play.example.com' };
const mail: OutgoingMail = {
  from: 'news@example.com',
  to: ['ann@example.com'],
  replyTo: [],
  subject: 'Weekend bonus',
  html: '<html><body><p>Hello</p></body></html>',
  text: 'Hello',
  tags: { app_id: 'app_1' },
};

describe('the unsubscribe link of a marketing mail', () => {
  test("is on the application's portal origin and carries a token of its key naming the player and the topic", async () => {
    const secrets = new MemorySecretStore({ [unsubscribeKeyName('app_1')]: 'key-1' });

    const { url } = await unsubscribeLinks({ secrets })(app, 'player-42', 'sports');

    expect(url.startsWith('https://play.example.com/unsubscribe/')).toBe(true);
    expect(verifyUnsubscribeToken('key-1', url.slice(url.lastIndexOf('/') + 1))).toEqual({ appId: 'app_1', profileId: 'player-42', topic: 'sports' });
  });

  test("of a campaign's mail names the campaign, its step and version", async () => {
    const secrets = new MemorySecretStore({ [unsubscribeKeyName('app_1')]: 'key-1' });
    const campaign = { campaign: 'broadcast:black-friday' };

    const { url } = await unsubscribeLinks({ secrets })(app, 'player-42', undefined, campaign);

    expect(verifyUnsubscribeToken('key-1', url.slice(url.lastIndexOf('/') + 1))).toEqual({ appId: 'app_1', profileId: 'player-42', campaign });
  });

  test('is refused with a Conflict when the application has no portal origin, and no key is made', async () => {
    const secrets = new MemorySecretStore();

    await expect(unsubscribeLinks({ secrets })({ app_id: 'app_1' }, 'player-42')).rejects.toThrow(Conflict);
    expect(secrets.values.size).toBe(0);
  });

  test("of an older application makes its key once, and the next mail's link is the same", async () => {
    const secrets = new MemorySecretStore();
    const links = unsubscribeLinks({ secrets });

    const first = await links(app, 'player-42');
    const second = await links(app, 'player-42');

    expect([...secrets.values.keys()]).toEqual([unsubscribeKeyName('app_1')]);
    expect(second.url).toBe(first.url);
  });

  test('made by two senders at once: the one that loses the race uses the winner key', async () => {
    const secrets = new MemorySecretStore();
    // Both read "no key" before either creates one.
    const get = secrets.get.bind(secrets);
    let misses = 2;
    secrets.get = async (name: string) => (misses-- > 0 ? undefined : get(name));

    const [a, b] = await Promise.all([unsubscribeKey(secrets)('app_1'), unsubscribeKey(secrets)('app_1')]);

    expect(a).toBe(b);
    expect(secrets.values.get(unsubscribeKeyName('app_1'))).toBe(a);
  });
});

describe('a mail with its unsubscribe link', () => {
  const url = 'https://play.example.com/unsubscribe/abc.def?x=1&y="2"';

  test("carries RFC 8058's two headers", () => {
    expect(withUnsubscribe(mail, url).headers).toEqual([
      { name: 'List-Unsubscribe', value: `<${url}>` },
      { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
    ]);
  });

  test('shows an escaped Unsubscribe link at the end of the HTML, inside its body, and the address at the end of the text', () => {
    const out = withUnsubscribe(mail, url);

    expect(out.html).toBe(
      '<html><body><p>Hello</p><p style="margin-top:24px;font-size:12px;color:#6b7280"><a href="https://play.example.com/unsubscribe/abc.def?x=1&amp;y=&quot;2&quot;">Unsubscribe</a></p></body></html>',
    );
    expect(out.text).toBe(`Hello\n\n--\nUnsubscribe: ${url}\n`);
  });

  test('without an HTML part gets none, and a second call replaces the headers rather than doubling them', () => {
    const textOnly = withUnsubscribe(withUnsubscribe({ ...mail, html: undefined }, 'https://a.example/unsubscribe/1'), url);

    expect(textOnly.html).toBeUndefined();
    expect(textOnly.headers?.map((header) => header.name)).toEqual(['List-Unsubscribe', 'List-Unsubscribe-Post']);
  });

  test("goes to SES with the headers in the simple content's Headers", () => {
    const input = sendEmailInput(withUnsubscribe(mail, url));

    expect(input.Content?.Simple?.Headers).toEqual([
      { Name: 'List-Unsubscribe', Value: `<${url}>` },
      { Name: 'List-Unsubscribe-Post', Value: 'List-Unsubscribe=One-Click' },
    ]);
    expect(sendEmailInput(mail).Content?.Simple).not.toHaveProperty('Headers');
  });
});

describe('the records of an unsubscribe', () => {
  const at = new Date('2026-11-26T10:00:00.000Z');
  const subject = { appId: 'app_1', profileId: 'p1', token: 'tok', version: 3 };

  test('leaving all marketing email turns consent off and records urm_unsubscribed without a topic', () => {
    const [profile, event] = preferenceRecords(at, subject, { leave: true }, 'one_click');

    expect(profile).toMatchObject({ app_id: 'app_1', profile_id: 'p1', urm_consent_email: false });
    expect(event).toMatchObject({ event: 'urm_unsubscribed', method: 'one_click' });
    expect(event).not.toHaveProperty('topic');
  });

  test("through a campaign's link records urm_unsubscribed naming the campaign, so its results count it", () => {
    const campaign = { campaign: 'journey:welcome', step: 'welcome-mail', version: '2' };

    const [, event] = preferenceRecords(at, { ...subject, campaign }, { leave: true }, 'one_click');

    expect(event).toMatchObject({ event: 'urm_unsubscribed', campaign: 'journey:welcome', campaign_step: 'welcome-mail', campaign_version: '2' });
  });

  test('leaving a topic adds it to urm_unsubscribed_topics once; rejoining removes it and records no unsubscribe', () => {
    const [leave, event] = preferenceRecords(at, subject, { leave: true, topic: 'vip' }, 'page');
    const rejoin = preferenceRecords(at, subject, { leave: false, topic: 'vip' }, 'page');

    expect(leave).toMatchObject({ urm_unique_append: { urm_unsubscribed_topics: ['vip'] } });
    expect(event).toMatchObject({ event: 'urm_unsubscribed', topic: 'vip', method: 'page' });
    expect(rejoin).toEqual([expect.objectContaining({ urm_remove: { urm_unsubscribed_topics: ['vip'] } })]);
  });

  test('have insert ids of the link, the change and the profile version: the same POST twice is stored once, leaving again after rejoining is new', () => {
    const ids = (version: number, at2 = at) =>
      preferenceRecords(at2, { ...subject, version }, { leave: true, topic: 'vip' }, 'page').map((r) => r.urm_insert_id);

    expect(ids(3, new Date('2026-11-26T10:00:05.000Z'))).toEqual(ids(3));
    expect(ids(5)).not.toEqual(ids(3));
    expect(ids(3).every((id) => typeof id === 'string' && id.length <= 128)).toBe(true);
  });
});
