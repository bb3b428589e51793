/**
 * Tracking links on the local stack, as an affiliate's visitor meets them: a
 * link made with the link use case (what the admin CLI and the portal call),
 * then its click address fetched over HTTP without following the redirect.
 * What was counted is read from the stream itself.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { createLink, listLinks } from '../../functions/back-office/affiliate-links';
import type { LinkRecord } from '../../functions/domain/affiliate-program';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';
import { applyAndRead, readTimeline, send } from '../support/profiles';
import { readWholeStream } from '../support/stream';

let stack: TestStack;
let link: LinkRecord;
let affiliateId: string;

beforeAll(async () => {
  stack = await testStack();
  const run = randomBytes(4).toString('hex');
  const registered = await request(stack.baseUrl, 'POST', '/api/register_affiliate', {
    key: stack.dev.server_key,
    body: {
      app_id: stack.dev.app_id,
      email: `clicks-${run}@example.com`,
      username: `clicks_${run}`,
      password: 'correct horse battery',
      first_name: 'Ada',
      last_name: 'Lovelace',
    },
  });
  expect(registered.status).toBe(200);
  affiliateId = registered.body.affiliate_id;
  // The demo application's site origin is the stack's own.
  link = await createLink(localBackOffice(localClients(stack.endpoints).document))(stack.dev.app_id, affiliateId, {
    name: 'Spring promo',
    landing_url: `${stack.baseUrl}/?lang=en`,
  });
});

/** A browser's first step: the redirect, not followed, so its target and cookie can be read. */
const open = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.baseUrl}${path}`, { redirect: 'manual', headers: { 'User-Agent': `integration-${randomBytes(4).toString('hex')}`, ...headers } });

async function clicksOn(linkId: string) {
  return (await readWholeStream(stack.endpoints)).filter((stored) => stored.envelope.kind === 'click' && stored.envelope.record.link_id === linkId);
}

describe('the click address', () => {
  test('redirects to the landing URL with the affiliate, the link and the sub-id, sets the visitor cookie, and counts a second click with it once', async () => {
    const first = await open(`/t/${link.link_id}?urm_aff=spring-promo`);
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
    const second = await open(`/t/${link.link_id}?urm_aff=spring-promo`, { Cookie: cookie });

    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe(`${stack.baseUrl}/?lang=en&urm_aff_id=${affiliateId}&urm_aff_link_id=${link.link_id}&urm_aff=spring-promo`);
    expect(first.headers.get('set-cookie')).toMatch(/^urm_v=[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{22}; Path=\/t\/; Max-Age=31536000; HttpOnly; SameSite=Lax$/);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(second.status).toBe(302);
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    expect(second.headers.get('set-cookie')).toBe(null);
    const clicks = await clicksOn(link.link_id);
    expect(clicks.map((stored) => stored.envelope.record)).toEqual([
      {
        app_id: stack.dev.app_id,
        profile_id: expect.stringMatching(/^urm-visitor-[0-9a-f]{32}$/),
        urm_insert_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        urm_date_time: expect.any(String),
        affiliate_id: affiliateId,
        link_id: link.link_id,
        sub_id: 'spring-promo',
      },
    ]);
  });

  test('counts a burst of clicks from one browser without cookies once, and keeps the stored landing URL whatever the query says', async () => {
    const other = await createLink(localBackOffice(localClients(stack.endpoints).document))(stack.dev.app_id, affiliateId, {
      name: 'Burst',
      landing_url: `${stack.baseUrl}/burst`,
    });
    const agent = { 'User-Agent': 'burst-agent' };

    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        open(`/t/${other.link_id}?urm_aff=${i % 2 ? 'x'.repeat(500) : 'ok'}&url=https://evil.example/&redirect=//evil.example`, agent),
      ),
    );

    for (const answer of answers) {
      expect(answer.status).toBe(302);
      expect(answer.headers.get('location')).toMatch(
        new RegExp(`^${stack.baseUrl}/burst\\?urm_aff_id=${affiliateId}&urm_aff_link_id=${other.link_id}(&urm_aff=ok)?$`),
      );
    }
    expect((await clicksOn(other.link_id)).length).toBe(1);
  });

  test('counts twenty clicks from one client with visitor cookies of its own making once', async () => {
    const other = await createLink(localBackOffice(localClients(stack.endpoints).document))(stack.dev.app_id, affiliateId, {
      name: 'Invented cookies',
      landing_url: `${stack.baseUrl}/invented`,
    });

    for (let i = 0; i < 20; i++) {
      const answer = await open(`/t/${other.link_id}`, { 'User-Agent': 'cookie-forger', Cookie: `urm_v=${randomBytes(32).toString('base64url')}` });
      expect(answer.status).toBe(302);
    }

    expect((await clicksOn(other.link_id)).length).toBe(1);
  });

  test('counts twenty new visitors from one client address, an agent each, three times on a link in a day', async () => {
    const other = await createLink(localBackOffice(localClients(stack.endpoints).document))(stack.dev.app_id, affiliateId, {
      name: 'One address',
      landing_url: `${stack.baseUrl}/one-address`,
    });

    for (let i = 0; i < 20; i++) expect((await open(`/t/${other.link_id}`)).status).toBe(302);

    expect((await clicksOn(other.link_id)).length).toBe(3);
  });

  test('answers 404 with a page for a made-up link, and puts nothing on the stream', async () => {
    const answer = await open('/t/AAAAAAAAAAAA?urm_aff=%3Cscript%3E');
    const page = await answer.text();

    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page).toMatch(/This link does not exist/);
    expect(page).not.toMatch(/AAAAAAAAAAAA|script/);
    // Other suites write to the shared stream meanwhile: a record of this visit would name the link.
    const naming = (await readWholeStream(stack.endpoints)).filter((stored) => JSON.stringify(stored.envelope).includes('AAAAAAAAAAAA'));
    expect(naming).toEqual([]);
  });

  test('click records reach neither the profiles nor the timelines', async () => {
    const clicked = await open(`/t/${link.link_id}`, { 'User-Agent': 'consumer-check' });
    expect(clicked.status).toBe(302);
    const [click] = (await clicksOn(link.link_id)).filter((stored) => stored.envelope.received_at >= new Date(Date.now() - 60_000).toISOString()).slice(-1);
    const visitor = click.envelope.record.profile_id;

    // Records of the visitor after the click (same partition key, same shard): once they are applied, so would the click have been.
    const attributes = await applyAndRead(stack, visitor, []);
    await send(stack, '/events', [{ app_id: stack.dev.app_id, profile_id: visitor, urm_date_time: '2026-11-21T10:00:00Z', event: 'marker' }]);
    const events = await (async () => {
      for (let i = 0; i < 300; i++) {
        const timeline = await readTimeline(stack, visitor);
        if (timeline.length > 0) return timeline;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('the marker event never reached the timeline');
    })();

    expect(attributes).toEqual({});
    expect(events.map((event: { event: string }) => event.event)).toEqual(['marker']);
  });
});

test("the link use case lists the affiliate's links, oldest first", async () => {
  const links = await listLinks(localBackOffice(localClients(stack.endpoints).document))(stack.dev.app_id, affiliateId);

  expect(links[0]).toEqual(link);
  expect(links.map((l) => l.created_at)).toEqual([...links.map((l) => l.created_at)].sort());
});
