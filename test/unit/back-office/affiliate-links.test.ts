import { describe, expect, test } from '@jest/globals';
import { clickAddress, createLink, listLinks } from '../../../functions/back-office/affiliate-links';
import { NotFound, ValidationError } from '../../../functions/domain/errors';
import { LINK_ID_PATTERN, newLinkId } from '../../../functions/domain/tracking-links';
import { MemoryAffiliateStore, MemoryAppStore, MemoryLinkStore } from '../../support/affiliates';

function setUp() {
  const apps = new MemoryAppStore([
    { app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z', site_origins: ['https://www.casino.example', 'http://localhost:8080'] },
    { app_id: 'app_2', name: 'No sites', created_at: '2026-01-01T00:00:00Z' },
  ]);
  const affiliates = new MemoryAffiliateStore();
  for (const [appId, affiliateId] of [
    ['app_1', 'aff_1'],
    ['app_2', 'aff_2'],
  ]) {
    affiliates.affiliates.set(`${appId}#${affiliateId}`, {
      app_id: appId,
      affiliate_id: affiliateId,
      email: `${affiliateId}@example.com`,
      username: affiliateId,
      first_name: 'Ada',
      last_name: 'Lovelace',
      password_hash: 'x',
      created_at: '2026-01-01T00:00:00Z',
    });
  }
  const links = new MemoryLinkStore();
  let minute = 0;
  const office = { apps: apps as never, affiliates, links, now: () => new Date(Date.UTC(2026, 10, 21, 10, minute++)) };
  return { links, create: createLink(office), list: listLinks(office) };
}

async function refused(promise: Promise<unknown>, errors: string[]) {
  await expect(promise).rejects.toThrow(ValidationError);
  await expect(promise).rejects.toMatchObject({ errors });
}

describe('createLink', () => {
  test('stores a link with a fresh 12-character id, the trimmed name and the landing URL in its normal form', async () => {
    const { create, links } = setUp();

    const link = await create('app_1', 'aff_1', { name: '  Spring promo ', landing_url: 'https://WWW.Casino.example/welcome?lang=en#top' });

    expect(link).toEqual({
      link_id: expect.stringMatching(/^[A-Za-z0-9]{12}$/),
      app_id: 'app_1',
      affiliate_id: 'aff_1',
      name: 'Spring promo',
      landing_url: 'https://www.casino.example/welcome?lang=en#top',
      created_at: '2026-11-21T10:00:00.000Z',
    });
    expect(links.links.get(link.link_id)).toEqual(link);
  });

  test('accepts any of the site origins, a port included', async () => {
    const { create } = setUp();

    await expect(create('app_1', 'aff_1', { name: 'Local', landing_url: 'http://localhost:8080/' })).resolves.toMatchObject({
      landing_url: 'http://localhost:8080/',
    });
  });

  for (const [landing_url, message] of [
    ['https://evil.example/welcome', "landing_url must be on one of the application's site origins: https://www.casino.example, http://localhost:8080"],
    [
      'https://www.casino.example.evil.example/',
      "landing_url must be on one of the application's site origins: https://www.casino.example, http://localhost:8080",
    ],
    ['http://www.casino.example/', "landing_url must be on one of the application's site origins: https://www.casino.example, http://localhost:8080"],
    ['http://localhost:8081/', "landing_url must be on one of the application's site origins: https://www.casino.example, http://localhost:8080"],
    ['javascript:alert(1)', 'landing_url must be an absolute URL starting with https:// or http://'],
    ['//www.casino.example/', 'landing_url must be an absolute URL starting with https:// or http://'],
    ['/welcome', 'landing_url must be an absolute URL starting with https:// or http://'],
    ['https://www.casino.example/a b', 'landing_url must be an absolute URL starting with https:// or http://'],
    ['https://user:pw@www.casino.example/', 'landing_url must not carry a user name or password'],
    ['https://www.casino.example/?urm_aff_id=someone-else', 'landing_url must not carry urm_aff_id: each click adds them'],
    [`https://www.casino.example/${'p'.repeat(2030)}`, 'landing_url must be at most 2048 characters'],
  ]) {
    test(`refuses the landing URL ${landing_url.slice(0, 60)}, naming landing_url, and stores nothing`, async () => {
      const { create, links } = setUp();

      await refused(create('app_1', 'aff_1', { name: 'Spring', landing_url }), [message]);
      expect(links.links.size).toBe(0);
    });
  }

  test('refuses every landing URL of an application that has no site origins, and says so', async () => {
    const { create } = setUp();

    await refused(create('app_2', 'aff_2', { name: 'Spring', landing_url: 'https://www.casino.example/' }), [
      "landing_url must be on one of the application's site origins, and the application has none yet",
    ]);
  });

  for (const [name, message] of [
    ['', 'name must be 1 to 100 characters'],
    ['   ', 'name must be 1 to 100 characters'],
    ['n'.repeat(101), 'name must be 1 to 100 characters'],
    ['tab\there', 'name must not contain control characters'],
  ]) {
    test(`refuses the name ${JSON.stringify(name.slice(0, 20))}`, async () => {
      await refused(setUp().create('app_1', 'aff_1', { name, landing_url: 'https://www.casino.example/' }), [message]);
    });
  }

  test('names every problem at once', async () => {
    await refused(setUp().create('app_1', 'aff_1', { name: '', landing_url: 'ftp://x' }), [
      'name must be 1 to 100 characters',
      'landing_url must be an absolute URL starting with https:// or http://',
    ]);
  });

  test('refuses an affiliate of another application, and an unknown application', async () => {
    const { create } = setUp();

    await expect(create('app_1', 'aff_2', { name: 'Spring', landing_url: 'https://www.casino.example/' })).rejects.toThrow(NotFound);
    await expect(create('app_9', 'aff_1', { name: 'Spring', landing_url: 'https://www.casino.example/' })).rejects.toThrow(NotFound);
  });
});

describe('listLinks', () => {
  test("answers the affiliate's links, oldest first, and no other affiliate's", async () => {
    const { create, list } = setUp();
    const first = await create('app_1', 'aff_1', { name: 'One', landing_url: 'https://www.casino.example/1' });
    const second = await create('app_1', 'aff_1', { name: 'Two', landing_url: 'https://www.casino.example/2' });

    expect(await list('app_1', 'aff_1')).toEqual([first, second]);
    expect(await list('app_2', 'aff_2')).toEqual([]);
  });

  test('refuses an unknown affiliate', async () => {
    await expect(setUp().list('app_1', 'aff_9')).rejects.toThrow(NotFound);
  });
});

describe('link ids', () => {
  test('are 12 base62 characters, all different in 10,000 draws', () => {
    const ids = Array.from({ length: 10_000 }, () => newLinkId());

    expect(ids.every((id) => LINK_ID_PATTERN.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(10_000);
  });

  test('draw every character of the alphabet with the same chance: bytes past the last whole multiple of 62 are skipped', () => {
    const bytes = Buffer.from([247, 248, 255, 0, 61, 62, 123, 1, 2, 3, 4, 5, 6, 7, 8, 9]);

    // 247 → 61 ('9'), 248 and 255 skipped, 0 → 'A', 61 → '9', 62 → 'A', 123 → '9', then 'B' …
    expect(newLinkId(() => bytes)).toBe('9A9A9BCDEFGH');
  });

  test('make the click address {base_url}/t/{link_id}', () => {
    expect(clickAddress('https://api.example.com/v1/', 'Qx7RmT2vLp9K')).toBe('https://api.example.com/v1/t/Qx7RmT2vLp9K');
  });
});
