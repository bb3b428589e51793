import { describe, expect, test } from '@jest/globals';
import { trackClick, type ClickRequest } from '../../../functions/api/track-click/core';
import type { LinkRecord } from '../../../functions/domain/affiliate-program';
import type { AffiliateRecord } from '../../../functions/domain/affiliates';
import type { RecordWriter } from '../../../functions/domain/ingest';
import { decodeEnvelope, partitionKey } from '../../../functions/domain/stream-record';
import { addressVisitor, signedVisitorCookie, visitorProfileId } from '../../../functions/domain/tracking-links';
import { MemoryAffiliateStore, MemoryClickClaims, MemoryLinkStore } from '../../support/affiliates';
import { MemoryStream } from '../../support/memory-stream';

const link: LinkRecord = {
  link_id: 'Qx7RmT2vLp9K',
  app_id: 'app_1',
  affiliate_id: 'aff_1',
  name: 'Spring',
  landing_url: 'https://www.casino.example/welcome?lang=en#top',
  created_at: '2026-11-01T00:00:00.000Z',
};
const affiliate = (status?: AffiliateRecord['status']): AffiliateRecord => ({
  app_id: 'app_1',
  affiliate_id: 'aff_1',
  email: 'ada@example.com',
  username: 'ada',
  first_name: 'Ada',
  last_name: 'Lovelace',
  password_hash: 'scrypt$…',
  created_at: '2026-11-01T00:00:00.000Z',
  ...(status ? { status } : {}),
});

/** The stack's visitor-cookie key in these tests: the first container stores it. */
const cookieKey = 'test-visitor-cookie-key';

function setUp(options: { status?: AffiliateRecord['status'] | 'gone'; writer?: RecordWriter; claims?: MemoryClickClaims } = {}) {
  const links = new MemoryLinkStore();
  links.links.set(link.link_id, link);
  const affiliates = new MemoryAffiliateStore();
  let affiliateReads = 0;
  if (options.status !== 'gone') affiliates.affiliates.set('app_1#aff_1', affiliate(options.status));
  const countingAffiliates = {
    get: (appId: string, id: string) => {
      affiliateReads++;
      return affiliates.get(appId, id);
    },
  };
  const claims = options.claims ?? new MemoryClickClaims();
  const stream = new MemoryStream();
  let clock = new Date('2026-11-21T10:00:00.000Z');
  let ids = 0;
  const click = trackClick({
    links,
    affiliates: countingAffiliates,
    claims,
    writer: options.writer ?? stream,
    newId: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
    now: () => clock,
    newCookieKey: () => cookieKey,
  });
  return {
    links,
    claims,
    stream,
    click,
    affiliateReads: () => affiliateReads,
    records: () => stream.writes.flat().map((entry) => ({ partitionKey: entry.partitionKey, ...decodeEnvelope(entry.data) })),
    advance: (ms: number) => (clock = new Date(clock.getTime() + ms)),
  };
}

const visit = (overrides: Partial<ClickRequest> = {}): ClickRequest => ({
  linkId: link.link_id,
  sourceIp: '203.0.113.7',
  userAgent: 'Mozilla/5.0 (Test)',
  ...overrides,
});

describe('a click on a known link of an approved affiliate', () => {
  test("redirects to the landing URL with the affiliate's parameters after its own query, before its fragment", async () => {
    const { click } = setUp();

    const result = await click(visit({ subIds: ['spring-promo'] }));

    expect(result).toMatchObject({
      outcome: 'redirect',
      count: 'counted',
      location: 'https://www.casino.example/welcome?lang=en&urm_aff_id=aff_1&urm_aff_link_id=Qx7RmT2vLp9K&urm_aff=spring-promo#top',
    });
  });

  test('puts one click record on the stream under the visitor partition key', async () => {
    const { click, records } = setUp();

    await click(visit({ subIds: ['spring-promo'] }));

    const profileId = visitorProfileId(addressVisitor('203.0.113.7', 'Mozilla/5.0 (Test)'));
    expect(records()).toEqual([
      {
        partitionKey: partitionKey('app_1', profileId),
        v: 1,
        kind: 'click',
        received_at: '2026-11-21T10:00:00.000Z',
        record: {
          app_id: 'app_1',
          profile_id: profileId,
          urm_insert_id: '00000000-0000-4000-8000-000000000001',
          urm_date_time: '2026-11-21T10:00:00.000Z',
          affiliate_id: 'aff_1',
          link_id: 'Qx7RmT2vLp9K',
          sub_id: 'spring-promo',
        },
      },
    ]);
    expect(profileId).toMatch(/^urm-visitor-[0-9a-f]{32}$/);
  });

  test('hands a visitor without a cookie its signed visitor id to keep, and one with that cookie nothing new, on another network too', async () => {
    const { click } = setUp();
    const first = await click(visit());
    if (first.outcome !== 'redirect') throw new Error('expected a redirect');

    const again = await click(visit({ visitorCookie: first.visitorCookie, sourceIp: '198.51.100.1' }));

    expect(first.visitorCookie).toBe(signedVisitorCookie(addressVisitor('203.0.113.7', 'Mozilla/5.0 (Test)'), cookieKey));
    expect(first.visitorCookie).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{22}$/);
    expect(again).toMatchObject({ count: 'repeat' });
    expect('visitorCookie' in again).toBe(false);
  });

  test('counts a flood of clicks by one visitor once, and each later one costs one claim and no stream write', async () => {
    const { click, claims, records, links, affiliateReads } = setUp();

    const results = await Promise.all(Array.from({ length: 50 }, () => click(visit())));

    expect(results.filter((r) => r.outcome === 'redirect' && r.count === 'counted').length).toBe(1);
    expect(results.filter((r) => r.outcome === 'redirect' && r.count === 'repeat').length).toBe(49);
    expect(records().length).toBe(1);
    expect(claims.attempts).toBe(50);
    // The link and its affiliate are read once, however many clicks ask at once.
    expect([links.reads, affiliateReads()]).toEqual([1, 1]);
  });

  test('counts the same visitor again once 24 hours have passed', async () => {
    const { click, records, advance } = setUp();
    await click(visit());
    advance(24 * 60 * 60 * 1000 - 1000);
    await click(visit());
    advance(1000);

    const later = await click(visit());

    expect(later).toMatchObject({ count: 'counted' });
    expect(records().length).toBe(2);
  });

  test('counts two visitors separately', async () => {
    const { click, records } = setUp();

    await click(visit({ userAgent: 'Agent A' }));
    await click(visit({ userAgent: 'Agent B' }));

    expect(records().map((r) => r.record.profile_id)).toEqual([
      visitorProfileId(addressVisitor('203.0.113.7', 'Agent A')),
      visitorProfileId(addressVisitor('203.0.113.7', 'Agent B')),
    ]);
  });
});

describe('clicks a client invents', () => {
  const counted = (results: Awaited<ReturnType<ReturnType<typeof trackClick>>>[]) =>
    results.filter((result) => result.outcome === 'redirect' && result.count === 'counted').length;
  const invented = (i: number) => `${String(i).padStart(2, '0')}${'v'.repeat(41)}`;

  test('twenty clicks from one client, each with a visitor cookie of its own making, count once', async () => {
    const { click, records } = setUp();

    const results = [];
    for (let i = 0; i < 20; i++) results.push(await click(visit({ visitorCookie: invented(i) })));

    expect(counted(results)).toBe(1);
    expect(records()).toHaveLength(1);
  });

  test('twenty new visitors from one client address (an agent each, no cookie) count three times on a link in a day', async () => {
    const { click, records } = setUp();

    const results = [];
    for (let i = 0; i < 20; i++) results.push(await click(visit({ userAgent: `Agent ${i}` })));

    expect(counted(results)).toBe(3);
    expect(records()).toHaveLength(3);
  });

  test('past the bound a new visitor still lands with the parameters and gets its cookie; its repeats cost the one refused claim', async () => {
    const { click, claims } = setUp();
    for (const agent of ['A', 'B', 'C']) await click(visit({ userAgent: agent }));

    const fourth = await click(visit({ userAgent: 'D' }));
    const attempts = [claims.attempts, claims.countAttempts];
    const again = await click(visit({ userAgent: 'D' }));

    expect(fourth).toMatchObject({ count: 'address-limit', location: expect.stringContaining('urm_aff_id=aff_1'), visitorCookie: expect.any(String) });
    expect(again).toMatchObject({ count: 'repeat' });
    expect([claims.attempts, claims.countAttempts]).toEqual([attempts[0] + 1, attempts[1]]);
  });

  test('the bound is per link and per UTC day', async () => {
    const { click, links, advance } = setUp();
    links.links.set('Other1234567', { ...link, link_id: 'Other1234567' });
    for (const agent of ['A', 'B', 'C']) await click(visit({ userAgent: agent }));

    const otherLink = await click(visit({ userAgent: 'D', linkId: 'Other1234567' }));
    const sameDay = await click(visit({ userAgent: 'E' }));
    advance(14 * 60 * 60 * 1000); // 2026-11-22T00:00Z
    const nextDay = await click(visit({ userAgent: 'F' }));

    expect([otherLink, sameDay, nextDay].map((result) => result.outcome === 'redirect' && result.count)).toEqual(['counted', 'address-limit', 'counted']);
  });

  test("an IPv6 client's /64 is one address; an IPv4-mapped address is its IPv4 address", async () => {
    const { click } = setUp();

    const results = [];
    for (let i = 1; i <= 5; i++) results.push(await click(visit({ sourceIp: `2001:db8:7:42::${i}`, userAgent: `Agent ${i}` })));
    results.push(await click(visit({ sourceIp: '2001:db8:7:43::1' })));
    for (const [i, ip] of ['198.51.100.9', '::ffff:198.51.100.9', '::ffff:c633:6409', '198.51.100.9'].entries()) {
      results.push(await click(visit({ sourceIp: ip, userAgent: `Mapped ${i}` })));
    }

    expect(results.map((result) => result.outcome === 'redirect' && result.count)).toEqual([
      'counted',
      'counted',
      'counted',
      'address-limit',
      'address-limit',
      'counted',
      'counted',
      'counted',
      'counted',
      'address-limit',
    ]);
  });

  test('a cookie signed with another key is no visitor: the click is the address and agent, and gets a cookie of this stack', async () => {
    const { click } = setUp();
    const theirs = signedVisitorCookie(addressVisitor('192.0.2.1', 'Elsewhere'), 'another-key');

    const result = await click(visit({ visitorCookie: theirs }));

    expect(result).toMatchObject({ count: 'counted', visitorCookie: signedVisitorCookie(addressVisitor('203.0.113.7', 'Mozilla/5.0 (Test)'), cookieKey) });
  });

  test("the stack's cookie key is asked for once per container, and the one stored first is kept", async () => {
    const claims = new MemoryClickClaims();
    claims.cookieKey = 'stored-by-another-container';
    const { click } = setUp({ claims });

    const results = await Promise.all([click(visit()), click(visit({ userAgent: 'B' }))]);

    expect(claims.keyReads).toBe(1);
    expect(results[0]).toMatchObject({
      visitorCookie: signedVisitorCookie(addressVisitor('203.0.113.7', 'Mozilla/5.0 (Test)'), 'stored-by-another-container'),
    });
  });
});

describe('the sub-id', () => {
  for (const [label, subIds] of [
    ['over 100 characters', ['a'.repeat(101)]],
    ['markup', ['"><script>alert(1)</script>']],
    ['another address', ['https://evil.example/']],
    ['given twice', ['one', 'two']],
    ['empty', ['']],
  ] as [string, string[]][]) {
    test(`${label} is dropped: the click still counts and redirects without urm_aff`, async () => {
      const { click, records } = setUp();

      const result = await click(visit({ subIds }));

      expect(result).toMatchObject({
        count: 'counted',
        location: 'https://www.casino.example/welcome?lang=en&urm_aff_id=aff_1&urm_aff_link_id=Qx7RmT2vLp9K#top',
      });
      expect(records()[0].record).not.toHaveProperty('sub_id');
    });
  }

  test('of 100 letters, digits, dots, underscores and dashes is kept', async () => {
    const subId = `A.b_c-9${'x'.repeat(93)}`;
    const { click } = setUp();

    const result = await click(visit({ subIds: [subId] }));

    expect(result).toMatchObject({ location: expect.stringContaining(`&urm_aff=${subId}#top`) });
  });
});

describe('a link that is not there', () => {
  test('answers unknown-link without claiming or writing anything, and is read once however often it is tried', async () => {
    const { click, claims, stream, links } = setUp();

    const results = [await click(visit({ linkId: 'ZZZZZZZZZZZZ' })), await click(visit({ linkId: 'ZZZZZZZZZZZZ' }))];

    expect(results).toEqual([{ outcome: 'unknown-link' }, { outcome: 'unknown-link' }]);
    expect([claims.attempts, stream.writes.length, links.reads]).toEqual([0, 0, 1]);
  });

  for (const linkId of ['short', 'Qx7RmT2vLp9K0', 'Qx7RmT2vLp9/', '../../admin!', undefined]) {
    test(`answers unknown-link for ${JSON.stringify(linkId)} without reading the table`, async () => {
      const { click, links } = setUp();

      expect(await click(visit({ linkId }))).toEqual({ outcome: 'unknown-link' });
      expect(links.reads).toBe(0);
    });
  }
});

describe('an affiliate who may not earn', () => {
  for (const status of ['suspended', 'pending', 'gone'] as const) {
    test(`${status}: redirects to the landing URL as stored, without parameters, and counts nothing`, async () => {
      const { click, claims, stream } = setUp({ status });

      const result = await click(visit({ subIds: ['spring-promo'] }));

      expect(result).toMatchObject({ count: 'not-attributed', location: link.landing_url });
      expect([claims.attempts, stream.writes.length]).toEqual([0, 0]);
    });
  }

  test('approved, or without a status (registered before statuses), earns', async () => {
    expect(await setUp({ status: 'approved' }).click(visit())).toMatchObject({ count: 'counted' });
    expect(await setUp().click(visit())).toMatchObject({ count: 'counted' });
  });
});

describe('when a write fails, the visitor still lands', () => {
  test('a failing claim: redirected with the parameters, nothing on the stream', async () => {
    const claims = new MemoryClickClaims();
    claims.claim = async () => {
      throw Object.assign(new Error('throttled'), { name: 'ProvisionedThroughputExceededException' });
    };
    const { click, stream } = setUp({ claims });

    const result = await click(visit());

    expect(result).toMatchObject({ count: 'failed', failure: { step: 'claim', error: 'ProvisionedThroughputExceededException' } });
    expect(result).toMatchObject({ location: expect.stringContaining('urm_aff_id=aff_1') });
    expect(stream.writes.length).toBe(0);
  });

  test("a record the stream refused: the claim and the address's count are given back, so the next click counts", async () => {
    const refusing = new MemoryStream([0]);
    const { click, claims } = setUp({ writer: refusing });

    const first = await click(visit());
    const second = await click(visit());

    expect(first).toMatchObject({ count: 'failed', failure: { step: 'stream', error: 'refused' } });
    expect(second).toMatchObject({ count: 'failed' });
    expect([claims.releases, claims.uncounts, refusing.writes.length]).toEqual([2, 2, 2]);
    expect([...claims.counts.values()]).toEqual([0]);
  });

  test("a failing address count: redirected with the parameters, the visitor's claim given back, nothing on the stream", async () => {
    const claims = new MemoryClickClaims();
    claims.countWithin = async () => Promise.reject(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
    const { click, stream } = setUp({ claims });

    const result = await click(visit());

    expect(result).toMatchObject({
      count: 'failed',
      failure: { step: 'address', error: 'ThrottlingException' },
      location: expect.stringContaining('urm_aff_id='),
    });
    expect([claims.releases, stream.writes.length]).toEqual([1, 0]);
  });

  test('no cookie key: redirected with the parameters, uncounted, no cookie set, and the key asked for again at the next click', async () => {
    const claims = new MemoryClickClaims();
    let failures = 1;
    const store = claims.visitorCookieKey.bind(claims);
    claims.visitorCookieKey = async (candidate) =>
      failures-- > 0 ? Promise.reject(Object.assign(new Error('down'), { name: 'InternalServerError' })) : store(candidate);
    const { click, stream } = setUp({ claims });

    const first = await click(visit());
    const second = await click(visit());

    expect(first).toMatchObject({
      count: 'failed',
      failure: { step: 'cookie-key', error: 'InternalServerError' },
      location: expect.stringContaining('urm_aff_id='),
    });
    expect(first).not.toHaveProperty('visitorCookie');
    expect(second).toMatchObject({ count: 'counted', visitorCookie: expect.any(String) });
    expect(stream.writes).toHaveLength(1);
  });

  test('a stream write that threw (it may have landed): the claim stays, so the click is never counted twice', async () => {
    const { click, claims } = setUp({ writer: { write: async () => Promise.reject(new Error('socket hang up')) } });

    const first = await click(visit());
    const second = await click(visit());

    expect(first).toMatchObject({ count: 'failed', failure: { step: 'stream', error: 'Error' } });
    expect(second).toMatchObject({ count: 'repeat' });
    expect(claims.releases).toBe(0);
  });

  test('a failing affiliate lookup: redirected without the parameters, nothing claimed', async () => {
    const links = new MemoryLinkStore();
    links.links.set(link.link_id, link);
    const claims = new MemoryClickClaims();
    const click = trackClick({
      links,
      affiliates: { get: async () => Promise.reject(Object.assign(new Error('down'), { name: 'InternalServerError' })) },
      claims,
      writer: new MemoryStream(),
      newId: () => 'id',
      now: () => new Date(),
    });

    const result = await click(visit());

    expect(result).toMatchObject({ count: 'failed', location: link.landing_url, failure: { step: 'affiliate', error: 'InternalServerError' } });
    expect(claims.attempts).toBe(0);
  });
});
