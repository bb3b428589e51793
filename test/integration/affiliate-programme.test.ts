/**
 * The affiliate programme as an operator and an affiliate live it, through
 * HTTP on the local stack with the demo application's settings (EUR; Deposit,
 * Bet and Win mapped; new affiliates approved on the demo hybrid plan: CPA
 * 50.00 for a first deposit of at least 20.00, RevShare 25 % with carry-over):
 * register → tracking link → click → set_affiliate with what the landing page
 * received → a qualifying Deposit and a Bet/Win pair → the report, to the cent.
 */
import { commandLineActor } from '../../functions/domain/audit';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { createLink } from '../../functions/back-office/affiliate-links';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import type { BackOffice } from '../../functions/back-office/ports';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { registration } from '../support/affiliates';
import { moneyEvent, setAffiliate } from '../support/funnel';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';
import { send, until } from '../support/profiles';

let stack: TestStack;
let office: BackOffice;
beforeAll(async () => {
  stack = await testStack();
  office = localBackOffice(localClients(stack.endpoints).document);
});

const today = () => new Date().toISOString().slice(0, 10);

const reportOf = (affiliateId: string, key = stack.dev.server_key) =>
  request(stack.baseUrl, 'GET', `/api/affiliates/${encodeURIComponent(affiliateId)}/report?from=${today()}&to=${today()}`, { key });

/** A click on the tracking link as a browser makes it, without following the redirect. */
const click = (linkId: string, cookie?: string) =>
  fetch(`${stack.baseUrl}/t/${linkId}?urm_aff=spring`, {
    redirect: 'manual',
    headers: { 'User-Agent': 'programme-test', ...(cookie ? { Cookie: cookie } : {}) },
  });

describe('the affiliate programme, from registration to commission', () => {
  test('one click, one registration, one qualifying first deposit and a Bet/Win pair give CPA + RevShare to the cent, once', async () => {
    const run = randomUUID().slice(0, 8);
    const registered = await request(stack.baseUrl, 'POST', '/api/register_affiliate', {
      key: stack.dev.server_key,
      body: registration(stack.dev.app_id, run),
    });
    expect(registered.status).toBe(200);
    const affiliateId: string = registered.body.affiliate_id;
    const link = await createLink(office)(stack.dev.app_id, affiliateId, { name: 'Spring banner', landing_url: `${stack.baseUrl}/?welcome=1` });

    // The visitor clicks twice (the second time with the cookie the first set): one click counts.
    const first = await click(link.link_id);
    expect(first.status).toBe(302);
    const landing = new URL(first.headers.get('location')!);
    const cookie = first.headers.get('set-cookie')!.split(';')[0];
    expect((await click(link.link_id, cookie)).status).toBe(302);
    expect(Object.fromEntries(landing.searchParams)).toEqual({ welcome: '1', urm_aff_id: affiliateId, urm_aff_link_id: link.link_id, urm_aff: 'spring' });

    // The operator's registration page passes on what it received; the player deposits and plays.
    const player = `player-${run}`;
    await setAffiliate(stack, {
      profile_id: player,
      urm_aff_id: landing.searchParams.get('urm_aff_id'),
      urm_aff_link_id: landing.searchParams.get('urm_aff_link_id'),
      urm_aff: landing.searchParams.get('urm_aff'),
    });
    const events = [moneyEvent(stack, player, 'Deposit', 100), moneyEvent(stack, player, 'Bet', 40.1), moneyEvent(stack, player, 'Win', 10.05)].map(
      (event, i) => ({
        ...event,
        urm_insert_id: `${run}-${i}`,
      }),
    );
    await send(stack, '/events', events);
    // The same request again (a client's retry): nothing counts twice.
    await send(stack, '/events', events);

    const answered = await until(
      () => reportOf(affiliateId),
      (r) => r.status === 200 && r.body.totals.clicks === 1 && r.body.totals.ngr === '30.05',
      'the report to show the click and the NGR',
      60_000,
    );
    expect(answered.body.currency).toBe('EUR');
    expect(answered.body.totals).toMatchObject({
      clicks: 1,
      registrations: 1,
      ftds: 1,
      qualified_ftds: 1,
      deposits: '100.00',
      ngr: '30.05',
      cpa: '50.00',
      // 25 % of 30.05 = 7.5125, to the cent.
      revshare: '7.51',
      commission: '57.51',
    });
    expect(answered.body.links).toEqual([expect.objectContaining({ link_id: link.link_id, name: 'Spring banner', clicks: 1, registrations: 1, ftds: 1 })]);
    expect(answered.body.days).toEqual([expect.objectContaining({ date: today(), clicks: 1, commission: '57.51' })]);
  });

  test("another application's server key gets 404 for this application's affiliate, as for one that does not exist", async () => {
    const registered = await request(stack.baseUrl, 'POST', '/api/register_affiliate', {
      key: stack.dev.server_key,
      body: registration(stack.dev.app_id, randomUUID().slice(0, 8)),
    });
    const other = await createApp(office, { name: `other ${randomUUID()}` });
    const otherKey = (await issueKey(office, other.app_id, commandLineActor, 'server')).key;

    const guessed = await reportOf(registered.body.affiliate_id, otherKey);
    const unknown = await reportOf('aff_00000000000000000000', otherKey);

    expect([guessed.status, guessed.body]).toEqual([404, { message: 'Not Found' }]);
    expect([unknown.status, unknown.body]).toEqual([404, { message: 'Not Found' }]);
  });
});
