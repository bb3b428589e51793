import { describe, expect, test } from '@jest/globals';
import { trackClick, type ClickRequest } from '../../../functions/api/track-click/core';
import type { LinkRecord } from '../../../functions/domain/affiliate-program';
import type { AffiliateRecord } from '../../../functions/domain/affiliates';
import type { RecordWriter } from '../../../functions/domain/ingest';
import { decodeEnvelope, partitionKey } from '../../../functions/domain/stream-record';
import { visitorOf, visitorProfileId } from '../../../functions/domain/tracking-links';
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

    const { visitor } = visitorOf({ sourceIp: '203.0.113.7', userAgent: 'Mozilla/5.0 (Test)' });
    const profileId = visitorProfileId(visitor);
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

  test('hands a visitor without a cookie the visitor id to keep, and one with a cookie nothing new', async () => {
    const { click } = setUp();
    const first = await click(visit());
    if (first.outcome !== 'redirect') throw new Error('expected a redirect');

    const again = await click(visit({ visitorCookie: first.newVisitor, sourceIp: '198.51.100.1' }));

    expect(first.newVisitor).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(again).toMatchObject({ count: 'repeat' });
    expect('newVisitor' in again).toBe(false);
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
      visitorProfileId(visitorOf({ sourceIp: '203.0.113.7', userAgent: 'Agent A' }).visitor),
      visitorProfileId(visitorOf({ sourceIp: '203.0.113.7', userAgent: 'Agent B' }).visitor),
    ]);
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

  test('a record the stream refused: the claim is given back, so the next click counts', async () => {
    const refusing = new MemoryStream([0]);
    const { click, claims } = setUp({ writer: refusing });

    const first = await click(visit());
    const second = await click(visit());

    expect(first).toMatchObject({ count: 'failed', failure: { step: 'stream', error: 'refused' } });
    expect(second).toMatchObject({ count: 'failed' });
    expect([claims.releases, refusing.writes.length]).toEqual([2, 2]);
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
